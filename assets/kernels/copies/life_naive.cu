// {{TITLE}}: the built-in simulation `life`, variant `naive`, copied as your own kernel.
// The built-in runs life_naive_kernel (gpu/sim/cuda/life_naive.cu); this copy has its rule ({{RULE}})
// and its border ({{BORDER}}) filled in, so each step gives the built-in's next state, cell for cell.
// One thread per cell: the cell's 8 neighbours read from global memory, the live ones counted, and the rule
// decides the cell's next state. Live cells are written as 255 and dead ones as 0, as the built-in stores
// them; a cell is alive when its lowest bit is set, so a state of 0s and 1s (`sim --kernel-file`'s start)
// works too.
// Simplified from the built-in: its template over the border (torus or dead) is this one case, and its rule
// table, indexed by the 3x3 window's total with the cell itself, is written as two sets of neighbour counts.
// This file is yours: change it and run it: `kernelscope-cli sim --kernel-file {{FILE}} --steps 100`.
// @family step

// The rule {{RULE}}: bit n is set when a cell with n live neighbours is born (a dead one) or
// survives (a live one).
constexpr unsigned kBornWith = {{BIRTH_MASK}};      // {{BIRTH_COUNTS}}
constexpr unsigned kSurvivesWith = {{SURVIVE_MASK}};  // {{SURVIVE_COUNTS}}
// {{BORDER_NOTE}}
constexpr bool kTorus = {{TORUS}};
constexpr unsigned char kAlive = 255;

__global__ void {{ENTRY}}(const unsigned char* state, unsigned char* next, int width, int height) {
  const int x = ks::global_x();
  const int y = ks::global_y();
  if (x >= width || y >= height) return;
  int neighbours = 0;
  for (int dy = -1; dy <= 1; ++dy) {
    for (int dx = -1; dx <= 1; ++dx) {
      if (dx == 0 && dy == 0) continue;
      int nx = x + dx, ny = y + dy;
      if (kTorus) {
        nx = ks::floor_mod(nx, width);
        ny = ks::floor_mod(ny, height);
      } else if (nx < 0 || nx >= width || ny < 0 || ny >= height) {
        continue;  // beyond the edge: dead
      }
      neighbours += state[ny * width + nx] & 1;
    }
  }
  const bool alive = (state[y * width + x] & 1) != 0;
  const unsigned rule = alive ? kSurvivesWith : kBornWith;
  next[y * width + x] = (rule >> neighbours) & 1 ? kAlive : 0;
}
