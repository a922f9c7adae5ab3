"""The basics lab from Python: saxpy on your own numpy arrays, checked against numpy, with the report's
launch arithmetic and timings.

    PYTHONPATH=build/python python3 examples/lab.py
"""
import numpy as np

import kernelscope as ks

n = 1_000_003  # an odd size: the last block is partly idle
rng = np.random.default_rng(0)
x = rng.random(n, dtype=np.float32)
y = rng.random(n, dtype=np.float32)

r = ks.lab("saxpy", size=n, inputs={"x": x, "y": y}, alpha=2.0, repeat=3)
print("arrays:", ", ".join(f"{k} {v.dtype}{list(v.shape)}" for k, v in r.outputs.items()))
out = r.outputs["y"]
assert np.allclose(out, 2.0 * x + y, rtol=1e-6)
report = r.report
print(f"saxpy n={n} on {report['backend']} ({report['variant']}): check {report['check']}")
