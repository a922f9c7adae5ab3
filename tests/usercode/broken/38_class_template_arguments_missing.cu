// expect-error 2: argument list for class template "ks::InImage" is missing
__global__ void k(ks::InImage in, float* out) {
  out[0] = in.at(0, 0);
}
