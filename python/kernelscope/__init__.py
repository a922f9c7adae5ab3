"""kernelscope from Python: the CLI's kernels on numpy arrays (docs/python.md).

    import numpy as np, kernelscope as ks
    r = ks.run("box", image, radius=1)      # image: H×W, H×W×3 or H×W×4, uint8 or float32
    r.output                                 # the result, the input's shape and dtype
    r.report                                 # what `kernelscope-cli run --json` writes for the same run

Every call takes the CLI's words (backend="cpu", variant="tiled", block=(16, 16)) and the kernel's parameters as
keywords; bad input raises ValueError with the CLI's message, files OSError, the device RuntimeError; Ctrl-C stops
the work and raises KeyboardInterrupt. The work runs without the GIL.
"""
import errno
import os
import re

from . import _kernelscope as _ks
from ._kernelscope import DeviceArray, Result

__all__ = ["DeviceArray", "Result", "kernels", "run", "sim", "lab", "topo", "compile"]


def _word(value, name):
    """A word option ("cpu", "tiled") as the CLI takes it; "" when not given."""
    if value is None:
        return ""
    if not isinstance(value, str):
        raise ValueError(f"{name}={value!r}: give a word (str), or leave it out")
    return value


def _count(value, name, minimum):
    if isinstance(value, bool) or not isinstance(value, int):
        raise ValueError(f"{name}={value!r}: give a whole number >= {minimum}")
    if value < minimum:
        raise ValueError(f"{name}={value} is out of range: allowed {minimum} or more")
    return value


def _threads(value):
    return 0 if value is None else _count(value, "threads", 1)


def _shape_text(value, name, example):
    """(w, h) or (n,) or a number or "WxH" as the CLI's WxH words."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if isinstance(value, (tuple, list)) and value and all(
            isinstance(v, int) and not isinstance(v, bool) for v in value):
        return "x".join(str(v) for v in value)
    raise ValueError(f"{name}={value!r}: give {example}")


def _param_text(name, value):
    """One parameter's value as the CLI's --param NAME=VALUE writes it."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return value
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value)
    if hasattr(value, "tolist"):  # numpy scalars and arrays
        return _param_text(name, value.tolist())
    if isinstance(value, (list, tuple)) and value and all(isinstance(row, (list, tuple)) for row in value):
        return ";".join(",".join(repr(float(x)) for x in row) for row in value)
    raise ValueError(f"parameter '{name}': {value!r} is not a value; give a number, a bool, a word, "
                     "or a matrix as a list of rows")


def _assignments(params):
    return [f"{name}={_param_text(name, value)}" for name, value in params.items()]


def _progress(callback):
    if callback is not None and not callable(callback):
        raise ValueError("progress: give a function progress(fraction, text), or leave it out")
    return callback


def _path(value, name):
    """A file or folder the call reads: FileNotFoundError (an OSError) when there is none."""
    if value is None:
        return ""
    try:
        path = os.fspath(value)
    except TypeError:
        raise ValueError(f"{name}={value!r}: give a file path") from None
    if not os.path.exists(path):
        raise FileNotFoundError(errno.ENOENT, f"{name}: there is no such file", path)
    return path


def kernels():
    """The registry: a list of dicts (id, title, category, params with ranges and help, variants, types,
    channels; lab kernels their sizes), as `kernelscope-cli list --json` prints its "kernels"."""
    return _ks.kernels()


def run(kernel, image, *, backend=None, variant=None, block=None, threads=None, repeat=5, warmup=1, **params):
    """One image kernel on a numpy image (H×W, H×W×3 or H×W×4; uint8 or float32; C-contiguous, read in place).

    Returns a Result: .output (the input's shape and dtype), .report (the CLI's `run --json`), .notes.
    A CuPy or Numba device array (__cuda_array_interface__; H×W or H×W×4) runs on the CUDA backend without a trip
    through the host: .output is then a DeviceArray, which cupy.asarray and numba.cuda.as_cuda_array take in
    place (and copy_to_host() copies)."""
    return _ks.run(kernel, image, _word(backend, "backend"), _word(variant, "variant"),
                   _shape_text(block, "block", "(width, height) or 'WxH', e.g. (16, 16)"), _threads(threads),
                   _count(repeat, "repeat", 1), _count(warmup, "warmup", 0), _assignments(params))


def sim(kernel, *, steps, size=None, initial=None, backend=None, variant=None, block=None, threads=None, every=None,
        progress=None, **params):
    """A simulation (life, heat, grayscott) for `steps` steps on a size=(width, height) grid, or from
    initial= (a numpy image, or a Life pattern's name). .output is the final state (life uint8, heat and
    grayscott float32); with every=K, .frames holds the state every K steps (the initial one first)."""
    width = height = 0
    if size is not None:
        if isinstance(size, str) and re.fullmatch(r"\d+[xX]\d+", size):
            size = tuple(int(x) for x in re.split("[xX]", size))
        if not (isinstance(size, (tuple, list)) and len(size) == 2 and all(
                isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in size)):
            raise ValueError(f"size={size!r} is not a grid size: give (width, height), e.g. size=(512, 512)")
        width, height = size
    if isinstance(initial, os.PathLike) or (isinstance(initial, str) and ("/" in initial or initial.endswith(".rle"))):
        initial = _path(initial, "initial")  # an RLE file, as the CLI's --pattern FILE.rle
    return _ks.sim(kernel, _count(steps, "steps", 1), width, height, initial, _word(backend, "backend"),
                   _word(variant, "variant"), _shape_text(block, "block", "(width, height), e.g. (32, 8)"),
                   _threads(threads), 0 if every is None else _count(every, "every", 1), _assignments(params),
                   _progress(progress))


def lab(kernel, *, size=None, variant=None, backend=None, host=None, streams=1, chunks=None, block=None,
        threads=None, repeat=5, warmup=1, seed=1, check=True, inputs=None, image=None, progress=None, **params):
    """A basics-lab kernel (vecadd, saxpy, reduce, matmul, sort, ...). size: n, (n, m) or (m, n, k) as the kernel
    takes, or the CLI's words ("1M", "2^20"); inputs: {name: numpy array}, the others generated from seed.
    .outputs holds every array of the kernel after the run, .output the image it makes (kmeans), .report the
    CLI's `lab --json`."""
    if inputs is None:
        inputs = {}
    if not isinstance(inputs, dict):
        raise ValueError("inputs: give a dict of {array name: numpy array}")
    return _ks.lab(kernel, _shape_text(size, "size", "n, (n, m), (m, n, k) or the CLI's words, e.g. '1M'"),
                   _word(variant, "variant"), _word(backend, "backend"), _word(host, "host"),
                   _shape_text(block, "block", "threads (256) or (width, height)"), _count(streams, "streams", 1),
                   0 if chunks is None else _count(chunks, "chunks", 1), _count(repeat, "repeat", 1),
                   _count(warmup, "warmup", 0), _count(seed, "seed", 0), bool(check), _threads(threads), inputs,
                   image, _assignments(params), _progress(progress))


def topo(*, qaplib=None, traffic=None, generate=None, topology=None, metric=None, placements="all", backend=None,
         variant=None, time=None, iterations=None, seed=1, top=0, histogram=True, threads=None, progress=None,
         **options):
    """The topology sweep (placements "all", "sample:N", "identity" or a file), search (placements="search",
    for time= seconds or iterations= per chain; options: the "search" kernel's parameters, e.g.
    algorithm="anneal") or proof by branch and bound (placements="bnb", on the CPU threads; with
    backend="cuda" the threads, up to 16, feed GPU 0; time= limits it: .report["proof"] tells whether it is
    optimal). The traffic: qaplib= a .dat file, traffic= a file, or generate= the CLI's generator words.
    .report is the CLI's `topo --json`."""
    search_params = {p["name"] for k in _ks.kernels() if k["id"] == "search" for p in k["params"]}
    for name in options:
        if name not in search_params:
            raise ValueError(f"unknown keyword '{name}' for ks.topo: it takes qaplib, traffic, generate, topology, "
                             "metric, placements, backend, variant, time, iterations, seed, top, histogram, threads, "
                             f"progress, and with placements='search' the search's parameters "
                             f"({', '.join(sorted(search_params))})")
    topologies = [] if topology is None else [topology] if isinstance(topology, str) else list(topology)
    if time is not None and (isinstance(time, bool) or not isinstance(time, (int, float)) or not time > 0):
        raise ValueError(f"time={time!r} searches nothing: give seconds > 0, e.g. time=10")
    return _ks.topo(_path(qaplib, "qaplib"), _path(traffic, "traffic"), _word(generate, "generate"),
                    [_word(t, "topology") for t in topologies], _word(metric, "metric"),
                    _word(placements, "placements"), _word(backend, "backend"), _word(variant, "variant"),
                    0.0 if time is None else float(time),
                    0 if iterations is None else _count(iterations, "iterations", 1),
                    _count(seed, "seed", 0), _count(top, "top", 0), bool(histogram), _threads(threads),
                    _assignments(options), _progress(progress))


def compile(source, *, family=None, entry=None, arch="sm_90", name="kernel.cu"):
    """Your own kernel's source through the compiler (NVRTC; no GPU needed), as `kernelscope-cli compile`.
    .report: per kernel registers, stack, spills, shared memory; .notes: the compiler's warnings. A kernel that
    does not compile raises ValueError with the compiler's messages at the source's lines."""
    if not isinstance(source, str):
        raise ValueError("source: give the kernel's source text (str); read a file with open(path).read()")
    return _ks.compile(source, _word(name, "name"), _word(family, "family"), _word(entry, "entry"), _word(arch, "arch"))
