"""Ctrl-C stops long work with KeyboardInterrupt; the GIL is free while work runs."""
import os
import signal
import subprocess
import sys
import threading
import time

import kernelscope as ks

SEARCH_A_MINUTE = """
import sys, time, kernelscope as ks
started = []
def progress(fraction, text):
    if not started:
        started.append(time.monotonic())
        print("started", flush=True)
try:
    ks.topo(generate="uniform:n=30,seed=1", topology="ring", placements="search", time=60, backend="cpu",
            progress=progress)
except KeyboardInterrupt:
    print("interrupted after %.1f s" % (time.monotonic() - started[0]), flush=True)
    sys.exit(7)
print("finished", flush=True)
"""


def test_ctrl_c_stops_a_search_with_keyboard_interrupt():
    p = subprocess.Popen([sys.executable, "-c", SEARCH_A_MINUTE], stdout=subprocess.PIPE, text=True,
                         env=dict(os.environ))
    try:
        assert p.stdout.readline().strip() == "started"
        p.send_signal(signal.SIGINT)
        out, _ = p.communicate(timeout=30)
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == 7, out
    assert float(out.split()[2]) < 30


def test_the_gil_is_released_while_work_runs():
    counted = []
    done = threading.Event()

    def count():
        n = 0
        while not done.is_set():
            n += 1
        counted.append(n)

    worker = threading.Thread(target=count)
    worker.start()
    start = time.monotonic()
    ks.topo(generate="uniform:n=12,seed=1", topology="ring", placements="search", time=0.5, backend="cpu")
    elapsed = time.monotonic() - start
    done.set()
    worker.join()
    assert elapsed >= 0.4
    # A thread that could not run while ks.topo held the GIL would count only during Python's switch intervals.
    assert counted[0] > 100000, counted
