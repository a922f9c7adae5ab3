// expect-error 3: identifier "Vec3" is undefined
__global__ void k(float* out) {
  Vec3 v;
  out[0] = v.x;
}
