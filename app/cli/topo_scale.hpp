#pragma once
// The options of `kernelscope-cli topo` for sweeps beyond one device: --gpus, --max-time, and the command that
// resumes a stopped sweep from its checkpoint.
#include <string>
#include <vector>

#include "core/device_info.hpp"

namespace ks::cli {

// "all" (every device), or a comma-separated list of device indices ("0,1"; a device may be listed twice: two
// workers with their own streams share it). Usage Error naming the devices there are.
std::vector<int> parse_gpu_list(const std::string& arg, const std::vector<DeviceInfo>& devices);
// Only the spelling (before asking CUDA what there is): the numbers, or nothing for "all".
std::vector<int> parse_gpu_numbers(const std::string& arg);

// "90", "90s", "10m", "1.5h", "2d": seconds; "none" or "0": no limit (0). Usage Error otherwise.
double parse_duration(const std::string& text, const std::string& what);

// The command line again, with --resume FILE in place of any --resume or --checkpoint given (a resumed sweep keeps
// writing the checkpoint it resumes), prefixed with "mpirun -np R" for a run of R ranks; quoted for a shell.
std::string resume_command(const std::vector<std::string>& argv, const std::string& checkpoint, int ranks);

}  // namespace ks::cli
