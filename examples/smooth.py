"""The seed lesson's 3×3 smoothing from Python: ks.run("box", radius=1) on a numpy image, its timings, and the
same mean computed with numpy to check it (docs/python.md shows the Numba kernel it replaces).

    PYTHONPATH=build/python python3 examples/smooth.py
"""
import time

import numpy as np

import kernelscope as ks

rng = np.random.default_rng(0)
image = rng.random((480, 640), dtype=np.float32)  # any H×W, H×W×3 or H×W×4 array of uint8 or float32

r = ks.run("box", image, radius=1, border="replicate", repeat=5)  # the first call also measures the peaks
start = time.perf_counter()
r = ks.run("box", image, radius=1, border="replicate", repeat=5)
call_ms = (time.perf_counter() - start) * 1000

# The same 3×3 mean in numpy, borders replicated: the check.
padded = np.pad(image.astype(np.float64), 1, mode="edge")
mean = sum(padded[dy:dy + 480, dx:dx + 640] for dy in range(3) for dx in range(3)) / 9
assert np.allclose(r.output, mean, rtol=1e-5, atol=1e-6)

kernel = r.report["timings_ms"]["kernel"]
print(f"box 3x3 on {image.shape[1]}x{image.shape[0]} f32, {r.report['backend']} ({r.report['variant']}): "
      f"kernel median {kernel['median']:.3f} ms over {kernel['count']} runs, {r.report['gbps']:.1f} GB/s; "
      f"the whole call (5 runs, 1 warm-up) {call_ms:.1f} ms")
for note in r.notes:
    print("note:", note)
