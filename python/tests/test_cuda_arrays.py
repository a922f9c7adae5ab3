"""Device arrays (__cuda_array_interface__) on the CUDA backend: in and out without a trip through the host.
The checks of the interface run everywhere; the runs need a CUDA device and CuPy or Numba (the GPU machine)."""
import numpy as np
import pytest

import kernelscope as ks
from conftest import cuda_device_present, random_image, value_error_naming


class FakeDeviceArray:
    """Only the interface: what ks.run checks before it asks for a device."""

    def __init__(self, shape, typestr="|u1", strides=None, ptr=4096):
        self.__cuda_array_interface__ = {"shape": shape, "typestr": typestr, "data": (ptr, False),
                                         "strides": strides, "version": 3}


@pytest.mark.parametrize("array, words", [
    (FakeDeviceArray((8, 8), "<f8"), ["image", "<f8", "uint8 or float32"]),
    (FakeDeviceArray((8, 8, 3)), ["image", "3 channels", "four"]),
    (FakeDeviceArray((8,)), ["image", "1 dimensions"]),
    (FakeDeviceArray((0, 8)), ["image", "no pixels"]),
    (FakeDeviceArray((8, 8), strides=(1, 8)), ["image", "strides"]),
    (FakeDeviceArray((8, 8), ptr=0), ["image", "null"]),
])
def test_bad_device_arrays_say_what_is_allowed(array, words):
    value_error_naming(words, ks.run, "box", array)


def test_device_arrays_run_on_the_cuda_backend_only():
    with pytest.raises(ValueError, match="backend='cpu'"):
        ks.run("box", FakeDeviceArray((8, 8)), backend="cpu")


def test_without_a_device_a_device_array_is_a_runtime_error():
    if cuda_device_present():
        pytest.skip("there is a CUDA device here")
    with pytest.raises(RuntimeError):
        ks.run("box", FakeDeviceArray((8, 8)))


needs_gpu = pytest.mark.skipif(not cuda_device_present(), reason="no CUDA device")


@needs_gpu
@pytest.mark.parametrize("shape, dtype", [((64, 256), np.uint8), ((37, 53), np.uint8), ((40, 64, 4), np.float32),
                                          ((29, 31, 4), np.uint8)])
def test_cupy_in_and_out_on_the_device(shape, dtype):
    cupy = pytest.importorskip("cupy")
    host = random_image(shape, dtype, seed=21)
    device = cupy.asarray(host)
    r = ks.run("gaussian", device, sigma=1.2, variant="tiled", repeat=2)
    assert isinstance(r.output, ks.DeviceArray)
    assert r._input_address == device.data.ptr
    out = cupy.asarray(r.output)  # taken in place: the same memory the engine wrote
    assert out.data.ptr == r.output.__cuda_array_interface__["data"][0]
    assert out.shape == host.shape and out.dtype == host.dtype
    assert r.report["timings_ms"]["download"] == 0
    aligned = device.data.ptr % 256 == 0 and device.strides[0] % 256 == 0
    if aligned:
        assert r.report["timings_ms"]["upload"] == 0  # read where it lies
    expected = ks.run("gaussian", host, sigma=1.2, backend="cuda", variant="tiled", repeat=1).output
    assert np.array_equal(cupy.asnumpy(out), expected)
    assert np.array_equal(r.output.copy_to_host(), expected)


@needs_gpu
def test_numba_in_and_out_on_the_device():
    numba_cuda = pytest.importorskip("numba.cuda")
    host = random_image((48, 80), np.float32, seed=22)
    device = numba_cuda.to_device(host)
    r = ks.run("box", device, radius=2)
    assert r._input_address == device.__cuda_array_interface__["data"][0]
    out = numba_cuda.as_cuda_array(r.output)
    assert out.__cuda_array_interface__["data"][0] == r.output.__cuda_array_interface__["data"][0]
    expected = ks.run("box", host, radius=2, backend="cuda").output
    np.testing.assert_allclose(out.copy_to_host(), expected, rtol=1e-6)


class FakeDlpackArray:
    """A DLPack producer that says it is on GPU 0 and hands over a numpy array's (host) tensor: what ks.run checks
    of a tensor, and that it releases the tensor it took."""

    def __init__(self, host):
        self.host = host
        self.shape = host.shape

    def __dlpack__(self, stream=None):
        return self.host.__dlpack__()

    def __dlpack_device__(self):
        return (2, 0)


@pytest.mark.parametrize("host, words", [
    (np.zeros((8, 8), np.float64), ["image", "64 bits", "uint8 or float32"]),
    (np.zeros((8, 8, 3), np.uint8), ["image", "3 channels"]),
    (np.zeros((8, 8), np.uint8), ["image", "not on a CUDA device"]),
])
def test_dlpack_tensors_are_checked_and_released(host, words):
    if not hasattr(host, "__dlpack__"):
        pytest.skip("this numpy has no DLPack")
    if not ks._kernelscope.has_dlpack:
        pytest.skip("this build has no DLPack (libdlpack-dev was not installed)")
    fake = FakeDlpackArray(host)
    value_error_naming(words, ks.run, "box", fake)


@needs_gpu
def test_dlpack_out_to_cupy():
    cupy = pytest.importorskip("cupy")
    if not ks._kernelscope.has_dlpack:
        pytest.skip("this build has no DLPack (libdlpack-dev was not installed)")
    host = random_image((33, 64), np.uint8, seed=23)
    r = ks.run("box", cupy.asarray(host), radius=1)
    out = cupy.from_dlpack(r.output)
    assert out.data.ptr == r.output.__cuda_array_interface__["data"][0]
    assert np.array_equal(cupy.asnumpy(out), ks.run("box", host, radius=1, backend="cuda").output)
