#pragma once
// How the Topology document builds its inputs (topology_inputs_build.cpp); Errors name the file and line.
#include <filesystem>
#include <string>

#include "session/topology/topology_document.hpp"

namespace ks::app {

// The embedded sample: the project ships no redistributable traffic, so it is generated.
inline constexpr const char* kSampleTraffic = "gravity:n=8,t=12,seed=1";
inline constexpr const char* kSampleTopologies[] = {"ring", "torus:4x2", "ocs:base=ring,k=6,seed=1"};

// The configurations of `in.sources` for `in.traffic` with `in.metric`. A source that does not fit the
// traffic (another node count) is dropped with a note when `drop_misfits`, else its Error propagates.
void build_configurations(TopologyInputs& in, bool drop_misfits);

// Traffic from a file or folder (QAPLIB .dat: its matrix B, and its matrix A as the only configuration). The
// previous inputs' family and file sources are rebuilt for it (those that do not fit are dropped with a
// note); a traffic file's own links come first.
TopologyInputs inputs_from_file(const std::filesystem::path& path, const TopologyInputs* previous);
TopologyInputs inputs_from_generator(const std::string& spec, const TopologyInputs* previous);
TopologyInputs sample_inputs();

}  // namespace ks::app
