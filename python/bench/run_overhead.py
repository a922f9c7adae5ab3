"""What ks.run costs beyond its kernel, per call, on a tiny image (docs/PERF.md "Python: ks.run per call").

    PYTHONPATH=build/python python3 python/bench/run_overhead.py [--calls N] [--size S] [--threads T]

Each call runs the kernel once (repeat=1, warmup=0) on the CPU backend; the cost beyond the kernel is the call's
wall time less the kernel time its report gives. Prints the median and p95 over the calls (the first 100 calls,
which start the engine and measure the CPU's peaks, are left out), twice: with the results kept and their reports
read after the timed loop (the report is built on first read), and with each report read and each result dropped
inside the loop, as a script that prints every call's timings does."""
import argparse
import statistics
import time

import numpy as np

import kernelscope as ks


def measure(calls, size, threads, read_report=False):
    image = np.random.default_rng(1).integers(0, 256, size=(size, size), dtype=np.uint8)
    results, walls, kernels = [], [], []
    for _ in range(calls + 100):
        start = time.perf_counter_ns()
        r = ks.run("box", image, backend="cpu", threads=threads, repeat=1, warmup=0)
        if read_report:
            kernels.append(r.report["timings_ms"]["kernel"]["min"] * 1000.0)
            del r  # the result goes inside the loop too
        walls.append((time.perf_counter_ns() - start) / 1000.0)
        if not read_report:
            results.append(r)
    # Kept: the reports are read after the timed loop (a call that nobody asks for its report does not build it).
    kernels += [r.report["timings_ms"]["kernel"]["min"] * 1000.0 for r in results]
    beyond = sorted(w - k for w, k in zip(walls[100:], kernels[100:]))
    return {
        "how": "reports read in the loop" if read_report else "reports read after the loop",
        "calls": calls,
        "image": f"{size}x{size} u8",
        "threads": threads,
        "wall_median_us": statistics.median(walls[100:]),
        "kernel_median_us": statistics.median(kernels[100:]),
        "beyond_median_us": statistics.median(beyond),
        "beyond_p95_us": beyond[int(0.95 * (len(beyond) - 1))],
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=5000)
    parser.add_argument("--size", type=int, default=8)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    for read_report in (False, True):
        m = measure(args.calls, args.size, args.threads, read_report)
        print("ks.run per call on a {image} image, {calls} calls, {threads} CPU thread(s), {how}: wall "
              "{wall_median_us:.1f} us, kernel {kernel_median_us:.1f} us, beyond the kernel {beyond_median_us:.1f} us "
              "median, {beyond_p95_us:.1f} us p95".format(**m))


if __name__ == "__main__":
    main()
