// A 3x3 smoothing (box filter) of an image: each output pixel is the mean of the 3x3 pixels around it.
// Family `stencil`: kernelscope gives the input and output images (u8 or f32, 1 or 4 channels); in.at() applies
// the border mode picked in the sidebar, so reads outside the image are fine. Launched with a 2-D grid covering
// the image, one thread per pixel.
// @family stencil
// @param strength float [0, 1] = 1   0 keeps the image, 1 is the full 3x3 mean

__global__ void smooth3x3(ks::InImage<float> in, ks::OutImage<float> out, float strength) {
  const int x = ks::global_x();
  const int y = ks::global_y();
  if (!out.contains(x, y)) return;
  for (int c = 0; c < in.channels; ++c) {
    float sum = 0.f;
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) sum += in.at(x + dx, y + dy, c);
    const float mean = sum / 9.f;
    const float centre = in.at(x, y, c);
    out.set(x, y, c, centre + strength * (mean - centre));
  }
}
