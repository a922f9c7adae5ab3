"""ks.kernels and ks.compile against the CLI's `list --json` and `compile --json`."""
import json

import pytest

import kernelscope as ks
from conftest import read_json



def test_kernels_is_the_cli_list(cli):
    theirs = json.loads(cli("list", "--json").stdout)["kernels"]
    assert ks.kernels() == theirs
    ids = [k["id"] for k in ks.kernels()]
    for expected in ("box", "gaussian", "life", "heat", "vecadd", "search"):
        assert expected in ids
    box = next(k for k in ks.kernels() if k["id"] == "box")
    radius = next(p for p in box["params"] if p["name"] == "radius")
    assert radius["type"] == "int" and radius["min"] >= 1 and radius["help"]


def test_compile_reports_what_the_cli_reports(cli, tmp_path, source_dir):
    example = _example_kernel(source_dir)
    source = open(example).read()
    try:
        r = ks.compile(source, name=example.split("/")[-1])
    except RuntimeError as e:  # a build without NVRTC says so
        pytest.skip(str(e))
    cli("compile", example, "--json", tmp_path / "c.json")
    theirs = read_json(tmp_path / "c.json")
    assert r.report["kernels"] == theirs["kernels"]
    assert r.report["family"] == "stencil"
    assert r.report["kernels"] and r.report["kernels"][0]["name"]


def test_compile_errors_are_value_errors_at_the_source_lines():
    broken = "// @family stencil\n__global__ void k(float* p) {\n  p[0] = undefined_name;\n}\n"
    try:
        ks.compile(broken, name="broken.cu")
    except RuntimeError as e:
        pytest.skip(str(e))
    except ValueError as e:
        assert "broken.cu" in str(e) and "does not compile" in str(e)
        assert "broken.cu:3" in str(e), str(e)
    else:
        raise AssertionError("a kernel that does not compile raised nothing")


def _example_kernel(source_dir):
    return f"{source_dir}/assets/kernels/smooth3x3.cu"  # the seed lesson's smoothing
