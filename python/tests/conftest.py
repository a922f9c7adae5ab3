"""Shared helpers of the Python module's tests: the built CLI (KS_CLI, set by ctest), images written and read
without any library beyond numpy (binary PGM/PPM in, PNG out), and the kernelscope module itself."""
import json
import os
import struct
import subprocess
import zlib

import numpy as np
import pytest

import kernelscope as ks


@pytest.fixture(scope="session")
def cli():
    path = os.environ.get("KS_CLI")
    if not path or not os.path.exists(path):
        pytest.skip("KS_CLI does not name the built kernelscope-cli (ctest sets it)")

    def run(*args, check=True):
        done = subprocess.run([path, *map(str, args)], capture_output=True, text=True)
        if check and done.returncode != 0:
            raise AssertionError(f"kernelscope-cli {' '.join(map(str, args))} -> {done.returncode}\n{done.stderr}")
        return done
    return run


@pytest.fixture(scope="session")
def source_dir():
    return os.environ.get("KS_SOURCE_DIR", os.path.join(os.path.dirname(__file__), "..", ".."))


def random_image(shape, dtype, seed=1):
    rng = np.random.default_rng(seed)
    if dtype == np.uint8:
        return rng.integers(0, 256, size=shape, dtype=np.uint8)
    return rng.random(size=shape, dtype=np.float32)


def write_pnm(path, image):
    """A binary PGM (H×W) or PPM (H×W×3) of a uint8 image: what the CLI loads without loss."""
    magic = b"P5" if image.ndim == 2 else b"P6"
    with open(path, "wb") as f:
        f.write(magic + b"\n%d %d\n255\n" % (image.shape[1], image.shape[0]) + image.tobytes())


def read_png(path):
    """An 8-bit, non-interlaced PNG (as the CLI writes them) as uint8 H×W or H×W×C."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, header = 8, b"", None
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = header
    assert depth == 8 and interlace == 0, header
    channels = {0: 1, 2: 3, 4: 2, 6: 4}[colour]
    raw = zlib.decompress(idat)
    stride = width * channels
    out = np.zeros((height, stride), dtype=np.uint8)
    prev = np.zeros(stride, dtype=np.int32)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = np.frombuffer(raw, dtype=np.uint8, count=stride, offset=y * (stride + 1) + 1).astype(np.int32)
        row = np.zeros(stride, dtype=np.int32)
        for x in range(stride):
            a = row[x - channels] if x >= channels else 0
            b = prev[x]
            c = prev[x - channels] if x >= channels else 0
            if kind == 0:
                p = 0
            elif kind == 1:
                p = a
            elif kind == 2:
                p = b
            elif kind == 3:
                p = (a + b) // 2
            else:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                p = a if pa <= pb and pa <= pc else b if pb <= pc else c
            row[x] = (line[x] + p) & 0xFF
        out[y] = row
        prev = row
    return out.reshape(height, width) if channels == 1 else out.reshape(height, width, channels)


def read_json(path):
    with open(path) as f:
        return json.load(f)


# The parts of a report that depend on the moment it ran (times, rates and the peaks measured by each process).
TIMING_KEYS = {"timings_ms", "gbps", "percent_of_copy", "copy_bandwidth_gbps", "roofline", "timing", "compile_ms",
               "kernel_ms", "steps_per_second", "cell_updates_per_second", "gflops", "upload_gbps", "download_gbps",
               "giga_comparisons_per_s",
               "timeline", "overlap", "time_s", "time_to_best_s", "elapsed_s", "wall_s", "seconds",
               # the first launch's time, and the Why findings, whose sentences carry the run's measured rates
               "first_launch_ms", "why"}


def without_timings(value):
    if isinstance(value, dict):
        return {k: ("<timing>" if k in TIMING_KEYS else without_timings(v)) for k, v in value.items()}
    if isinstance(value, list):
        return [without_timings(v) for v in value]
    return value


def key_paths(value, prefix=""):
    """Every key of a report, as paths, in order: the structure two reports share."""
    if isinstance(value, dict):
        out = []
        for k, v in value.items():
            out.append(prefix + k)
            out += key_paths(v, prefix + k + ".")
        return out
    if isinstance(value, list) and value:
        return key_paths(value[0], prefix + "0.")
    return []


def cuda_device_present():
    """Whether the registry says CUDA variants can run here (as `list --json` does)."""
    return any(v["available"] for k in ks.kernels() for v in k["variants"] if v["backend"] == "cuda")


def value_error_naming(words, call, *args, **kwargs):
    """call(*args, **kwargs) raises ValueError, and its message has every one of `words`."""
    with pytest.raises(ValueError) as e:
        call(*args, **kwargs)
    for w in words:
        assert w in str(e.value), str(e.value)
