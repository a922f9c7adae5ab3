// The search's entry in the registry (KernelSpec "search", category "topology"): its parameters, with ranges,
// defaults and help, are read by `kernelscope-cli list`, `topo --placements search --param`, and the Topology
// panel's search controls. search_params_from turns a checked ParamSet into SearchParams.
#include "registry/registry.hpp"
#include "topo/search/search.hpp"

namespace ks {

namespace {

KernelSpec search_spec() {
  KernelSpec k;
  k.id = "search";
  k.title = "Placement search";
  k.category = "topology";
  k.description =
      "Searches the placements of the traffic's nodes on each topology configuration for the lowest cost (a "
      "quadratic assignment problem) past the sizes an exhaustive sweep reaches, n = 2 .. 1024: robust tabu "
      "search (Taillard: pair swaps, the full swap-delta matrix updated in O(1) per pair, random tenures, "
      "aspiration) or simulated annealing (pair swaps, O(n) deltas, geometric cooling cycles), many "
      "independent "
      "chains that restart from perturbed elites when they stall. Several timestamps: the summed traffic is "
      "optimised. Run it with `kernelscope-cli topo --placements search` or the Topology panel";
  k.params = {
      choice_param("algorithm", {"tabu", "anneal"}, "tabu",
                   "tabu: robust tabu search, the best on most instances; anneal: simulated annealing"),
      int_param("chains", 0, 4194304, "0",
                "Independent chains; 0: the backend's choice (CPU: one per thread; CUDA: as many as fill the "
                "GPU, one per block for tabu and one per thread for annealing)"),
      int_param("sync", 0, 1000000, "0",
                "Steps per chain between the host's looks at the chains (restarts, progress, stopping); 0: "
                "10^7 / n^2 tabu moves or 3 x 10^5 / n annealing steps"),
      choice_param("tenure_rule", {"cubed", "band"}, "cubed",
                   "tabu: cubed, each tenure floor(u^3 x tenure x n), u uniform in [0, 1) (Taillard's 2006 "
                   "code); band, one tenure uniform in [band_low x n, band_high x n] drawn anew every "
                   "2 x band_high x n moves (Taillard 1991)"),
      float_param("tenure", 0.01, 1000, "2",
                  "tabu: the longest tenure of the cubed rule, as a multiple of n"),
      float_param("band_low", 0.01, 100, "0.9",
                  "tabu: the shortest tenure of the band rule, as a multiple of n"),
      float_param("band_high", 0.01, 100, "1.1",
                  "tabu: the longest tenure of the band rule, as a multiple of n (at least band_low)"),
      float_param("aspiration", 0, 1000000, "5",
                  "tabu: a move that makes an assignment not made for aspiration x n^2 iterations is taken "
                  "(diversification); 0 switches it off"),
      float_param(
          "accept_start", 0.001, 0.999, "0.3",
          "anneal: the probability of accepting the mean uphill move at the start of a cooling cycle"),
      float_param("accept_end", 1e-9, 0.5, "0.0001",
                  "anneal: the same probability at the end of the cycle (below accept_start)"),
      float_param("cycle", 0.01, 1000, "20",
                  "anneal: steps of a cooling cycle as a multiple of n^2; a chain should make at least one "
                  "whole cycle in the run (on the GPU, about 20 n^2 steps per chain in 10 s at n = 100)"),
      float_param(
          "tabu_stall", 0.01, 10000, "5",
          "tabu: a chain whose best has not improved for tabu_stall x n^2 moves restarts (restart_from)"),
      int_param(
          "anneal_stall", 1, 1000, "2",
          "anneal: a chain whose best has not improved for this many cooling cycles restarts (restart_from)"),
      choice_param(
          "restart_from", {"elites", "own", "cross", "record"}, "own",
          "Where a stalled chain restarts: elites, one of the best distinct placements of all chains; "
          "own, the chain's own best since its last restart (iterated tabu search, each chain keeps to "
          "its own region); cross, a crossover of its own best and one of the elites (what both assign "
          "alike is kept, each other position taken from either); record, the best the chain has found "
          "since it started"),
      float_param("perturb", 0, 1, "0.1",
                  "A restart starts from where restart_from says with perturb x n random swaps"),
      float_param("perturb_max", 0, 1, "0",
                  "Breakout (above perturb): each restart in a row whose chain found nothing better than its "
                  "best before adds perturb x n swaps, up to perturb_max x n; 0: always perturb x n"),
      int_param("elites", 1, 1000, "8", "The best distinct placements kept to restart from"),
      int_param(
          "block", 0, 512, "0",
          "CUDA tabu: threads per chain (a multiple of 32, 32 .. 512); 0: one per pair that touches a move "
          "(2n - 3, in whole warps, 64 .. 512; two with integer costs where an SM would hold fewer than 16 "
          "warps) where the chain's state fits in shared memory, else 512"),
      int_param("matrix_bits", 0, 32, "0",
                "CUDA tabu with 32-bit integer costs: bits per path cost and traffic entry a chain keeps (8, "
                "16 or 32; narrower ones leave room in shared memory for more chains an SM, with the same "
                "moves); 0: the fewest that hold every entry"),
  };
  k.variants = {
      {"cpu", Backend::Cpu, "Chains on the CPU's threads (the reference)",
       {{"gpu/topo/search/cpu/search_cpu.cpp", "class CpuSearch"}}},
      {"cuda", Backend::Cuda,
       "Chains on the GPU: tabu one per block (delta matrix and tabu list in shared memory where they "
       "fit), annealing one per thread",
       {{"gpu/topo/search/cuda/search_kernels.cuh", "tabu_kernel("}}}};
  // No image: the cost model describes images, and a search moves no pixels.
  k.cost = [](const ImageShape&, const ParamSet&) { return CostModel{}; };
  return k;
}

}  // namespace

void register_topology_kernels(KernelRegistry& registry) {
  registry.add(search_spec());
}

}  // namespace ks

namespace ks::topo {

SearchParams search_params_from(const ParamSet& params) {
  SearchParams q;
  q.algorithm = params.get_choice("algorithm") == "anneal" ? SearchAlgorithm::Anneal : SearchAlgorithm::Tabu;
  q.chains = int(params.get_int("chains"));
  q.sync = int(params.get_int("sync"));
  q.tenure_rule = params.get_choice("tenure_rule") == "band" ? TenureRule::Band : TenureRule::Cubed;
  q.tenure = params.get_float("tenure");
  q.band_low = params.get_float("band_low");
  q.band_high = params.get_float("band_high");
  q.aspiration = params.get_float("aspiration");
  q.accept_start = params.get_float("accept_start");
  q.accept_end = params.get_float("accept_end");
  q.cycle = params.get_float("cycle");
  q.tabu_stall = params.get_float("tabu_stall");
  q.anneal_stall = int(params.get_int("anneal_stall"));
  const std::string from = params.get_choice("restart_from");
  q.restart_from = from == "own"      ? RestartFrom::Own
                   : from == "cross"  ? RestartFrom::Cross
                   : from == "record" ? RestartFrom::Record
                                      : RestartFrom::Elites;
  q.perturb = params.get_float("perturb");
  q.perturb_max = params.get_float("perturb_max");
  q.elites = int(params.get_int("elites"));
  q.block = int(params.get_int("block"));
  q.matrix_bits = int(params.get_int("matrix_bits"));
  return q;
}

}  // namespace ks::topo
