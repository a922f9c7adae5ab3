"""ks.sim, ks.lab and ks.topo against the CLI's sim, lab and topo for the same requests."""
import numpy as np
import pytest

import kernelscope as ks
from conftest import cuda_device_present, key_paths, random_image, read_json, value_error_naming, without_timings


def test_life_from_a_pattern_matches_the_cli(cli, tmp_path):
    r = ks.sim("life", steps=4, size=(16, 12), initial="glider", backend="cpu")
    assert r.output.shape == (12, 16) and r.output.dtype == np.uint8
    assert np.count_nonzero(r.output) == 5  # a glider stays five cells
    cli("sim", "life", "--steps", 4, "--size", "16x12", "--pattern", "glider", "--backend", "cpu", "--json",
        tmp_path / "s.json")
    theirs = read_json(tmp_path / "s.json")
    assert key_paths(r.report) == key_paths(theirs)
    theirs["output"] = None
    assert without_timings(r.report) == without_timings(theirs)


def test_life_from_an_rle_file(tmp_path):
    rle = tmp_path / "blinker.rle"
    rle.write_text("x = 3, y = 1, rule = B3/S23\n3o!\n")
    r = ks.sim("life", steps=1, size=(9, 7), initial=str(rle), backend="cpu")
    assert np.count_nonzero(r.output) == 3  # a blinker turns upright
    rows = np.nonzero(r.output)[0]
    assert rows.max() - rows.min() == 2
    with pytest.raises(FileNotFoundError):
        ks.sim("life", steps=1, initial=tmp_path / "missing.rle", backend="cpu")


def test_heat_frames_and_a_float_start():
    start = random_image((9, 13), np.float32, seed=2)
    r = ks.sim("heat", steps=6, initial=start, every=2, backend="cpu")
    assert r.output.shape == (9, 13) and r.output.dtype == np.float32
    assert len(r.frames) == 4  # the start and every 2 steps
    assert r.report["frames"]["count"] == 4
    assert r.report["steps"] == 6
    # Diffusion from a start in 0..1 stays within it and smooths the state.
    assert r.output.min() >= start.min() - 1e-6 and r.output.max() <= start.max() + 1e-6
    assert np.std(r.output) < np.std(start)


def test_topology_proof_matches_the_cli(cli, tmp_path):
    r = ks.topo(generate="uniform:n=9,seed=5", topology="ring", placements="bnb", threads=2)
    cli("topo", "--generate", "uniform:n=9,seed=5", "--topology", "ring", "--placements", "bnb", "--threads", 2,
        "--json", tmp_path / "t.json")
    theirs = read_json(tmp_path / "t.json")
    assert key_paths(r.report) == key_paths(theirs)
    assert r.report["proof"]["optimal"] and theirs["proof"]["optimal"]
    assert r.report["best"]["cost"] == theirs["best"]["cost"] == r.report["proof"]["best_bound"]
    # The same proof: the same tree with the same (tabu, fixed-length) incumbent explores the same nodes.
    assert r.report["proof"]["nodes"] == theirs["proof"]["nodes"]


@pytest.mark.skipif(not cuda_device_present(), reason="no CUDA device")
def test_topology_proof_on_the_gpu_explores_the_cpus_tree():
    # Three threads feed GPU 0 (the CLI's default: every thread, up to 16 a GPU); the tree is the CPU's.
    args = dict(generate="uniform:n=11,seed=7", topology="ring", placements="bnb", threads=3)
    cpu = ks.topo(backend="cpu", **args)
    gpu = ks.topo(backend="cuda", **args)
    assert gpu.report["proof"]["optimal"] and cpu.report["proof"]["optimal"]
    assert gpu.report["best"]["cost"] == cpu.report["best"]["cost"]
    assert gpu.report["proof"]["nodes"] == cpu.report["proof"]["nodes"]
    feeders = gpu.report["timing"]["feeders"]
    assert len(feeders) == 3 and sum(f["nodes"] for f in feeders) > 0


@pytest.mark.parametrize("kwargs, words", [
    ({"steps": 0}, ["steps"]),
    ({"steps": 2, "size": (0, 4)}, ["size"]),
    ({"steps": 2, "size": "big"}, ["size"]),
    ({"steps": 2, "initial": "nosuchpattern"}, ["nosuchpattern"]),
    ({"steps": 2, "density": 3.0}, ["density"]),
    ({"steps": 2, "every": 0}, ["every"]),
    ({"steps": 2, "initial": np.zeros((4, 4), np.float64)}, ["initial", "float64"]),
])
def test_bad_simulations(kwargs, words):
    value_error_naming(words, ks.sim, "life", backend="cpu", **kwargs)


def test_vecadd_with_given_inputs():
    a = np.arange(1000, dtype=np.float32)
    b = np.full(1000, 0.5, dtype=np.float32)
    r = ks.lab("vecadd", size=1000, inputs={"a": a, "b": b}, backend="cpu", repeat=1, warmup=0)
    assert list(r.outputs) == ["a", "b", "c"]
    np.testing.assert_array_equal(r.outputs["a"], a)
    np.testing.assert_array_equal(r.outputs["c"], a + b)


def test_lab_report_matches_the_cli(cli, tmp_path):
    r = ks.lab("saxpy", size=4099, backend="cpu", seed=3, repeat=2, warmup=1)
    cli("lab", "saxpy", "--size", 4099, "--backend", "cpu", "--seed", 3, "--repeat", 2, "--warmup", 1, "--json",
        tmp_path / "l.json")
    theirs = read_json(tmp_path / "l.json")
    assert key_paths(r.report) == key_paths(theirs)
    for key in ("kernel", "variant", "backend", "size", "params", "check"):
        if key in theirs:
            assert without_timings(r.report[key]) == without_timings(theirs[key]), key


@pytest.mark.parametrize("kwargs, words", [
    ({"size": "lots"}, ["lots"]),
    ({"inputs": {"a": np.zeros(8, np.int16)}}, ["inputs['a']", "int16"]),
    ({"inputs": [1, 2]}, ["inputs"]),
    ({"repeat": 0}, ["repeat"]),
    ({"host": "gpu-ish"}, ["gpu-ish"]),
])
def test_bad_lab_requests(kwargs, words):
    value_error_naming(words, ks.lab, "vecadd", backend="cpu", **kwargs)


def test_lab_refuses_other_kernels():
    with pytest.raises(ValueError, match="not a lab kernel"):
        ks.lab("box", backend="cpu")


TOPO = ["--generate", "uniform:n=7,seed=2", "--topology", "ring"]


def test_topology_sweep_matches_the_cli(cli, tmp_path):
    seen = []
    r = ks.topo(generate="uniform:n=7,seed=2", topology="ring", backend="cpu", top=3,
                progress=lambda fraction, text: seen.append(fraction))
    cli("topo", *TOPO, "--backend", "cpu", "--top", 3, "--json", tmp_path / "t.json")
    theirs = read_json(tmp_path / "t.json")
    assert key_paths(r.report) == key_paths(theirs)
    assert without_timings(r.report) == without_timings(theirs)
    assert seen and seen[-1] <= 1


def test_topology_search_matches_the_cli(cli, tmp_path):
    r = ks.topo(generate="uniform:n=9,seed=5", topology="ring", placements="search", iterations=300, seed=4,
                backend="cpu")
    cli("topo", "--generate", "uniform:n=9,seed=5", "--topology", "ring", "--placements", "search", "--iterations",
        300, "--seed", 4, "--backend", "cpu", "--json", tmp_path / "t.json")
    theirs = read_json(tmp_path / "t.json")
    assert key_paths(r.report) == key_paths(theirs)
    assert without_timings(r.report) == without_timings(theirs)  # a seeded search with an iteration limit repeats


@pytest.mark.parametrize("kwargs, words", [
    ({"generate": "uniform:n=5", "topology": "ring", "placements": "sample:x"}, ["sample count", "'x'"]),
    ({"generate": "nosuch:n=5", "topology": "ring"}, ["nosuch"]),
    ({"generate": "uniform:n=5", "topology": "ring", "time": 0}, ["time"]),
    ({"generate": "uniform:n=5", "topology": "ring", "algorithm": "anneal"}, ["search"]),
    ({"generate": "uniform:n=5", "topology": "ring", "histgram": False}, ["unknown keyword 'histgram'", "histogram"]),
    ({"generate": "uniform:n=5", "topology": "ring", "placements": "search", "iterations": 10, "algorithm": "x"},
     ["algorithm", "x"]),
])
def test_bad_topology_requests(kwargs, words):
    value_error_naming(words, ks.topo, backend="cpu", **kwargs)


def test_file_errors_are_os_errors(tmp_path):
    with pytest.raises(FileNotFoundError, match="missing.dat"):
        ks.topo(qaplib=tmp_path / "missing.dat", backend="cpu")
    corrupt = tmp_path / "corrupt.dat"
    corrupt.write_text("3\n1 2\n")  # a size, then too few numbers
    with pytest.raises(OSError, match="corrupt.dat"):
        ks.topo(qaplib=corrupt, backend="cpu")


def test_a_failing_progress_callback_stops_the_work():
    def stop(fraction, text):
        raise RuntimeError("stop here")
    with pytest.raises(RuntimeError, match="stop here"):
        ks.topo(generate="uniform:n=10,seed=1", topology="ring", backend="cpu", progress=stop)
