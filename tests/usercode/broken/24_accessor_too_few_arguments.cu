// expect-error 3: cannot be called with the given argument list
__global__ void k(ks::InImage<float> in, ks::OutImage<float> out) {
  out.set(0, 0, 0, in.at());
}
