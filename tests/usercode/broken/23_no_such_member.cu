// expect-error 3: has no member "size"
__global__ void k(ks::InImage<float> in, ks::OutImage<float> out) {
  out.set(0, 0, 0, in.size());
}
