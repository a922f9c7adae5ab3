// One generation of Conway's Game of Life on a torus (the edges wrap): a live cell (1) with 2 or 3 live neighbours
// lives on, a dead cell (0) with exactly 3 is born; every other cell is dead in the next state.
// Family `step`: kernelscope keeps two states and swaps them after each step, so the animation shows next as the
// new state. One thread per cell, in a 2-D grid covering the world.
// @family step
// @param birth int [1, 8] = 3   live neighbours that bring a dead cell to life

__global__ void life_step(const unsigned char* state, unsigned char* next, int width, int height, int birth) {
  const int x = ks::global_x();
  const int y = ks::global_y();
  if (x >= width || y >= height) return;
  int neighbours = 0;
  for (int dy = -1; dy <= 1; ++dy)
    for (int dx = -1; dx <= 1; ++dx) {
      if (dx == 0 && dy == 0) continue;
      const int nx = ks::floor_mod(x + dx, width);
      const int ny = ks::floor_mod(y + dy, height);
      neighbours += state[ny * width + nx];
    }
  const bool alive = state[y * width + x] != 0;
  next[y * width + x] = (alive && (neighbours == 2 || neighbours == 3)) || (!alive && neighbours == birth) ? 1 : 0;
}
