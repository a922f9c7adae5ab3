// What host memory is free (core/host_memory): /proc/meminfo and the cgroup files as machines write them, and
// readings that are not plausible (a sandbox's MemAvailable of 0, cgroup v1's "no limit" number, "max", missing
// files), which must give "unknown" rather than a figure that refuses work.
#include <gtest/gtest.h>

#include <fstream>

#include "core/host_memory.hpp"
#include "support/test_support.hpp"

namespace ks {
namespace {

constexpr std::uint64_t kKiB = 1024, kGiB = 1024 * 1024 * 1024;

// A /proc/meminfo as Linux writes it (kB figures, and lines without a unit).
std::string meminfo(std::uint64_t total_kib, std::uint64_t available_kib) {
  return "MemTotal:       " + std::to_string(total_kib) + " kB\nMemFree:        1000 kB\nMemAvailable:   " +
         std::to_string(available_kib) + " kB\nBuffers:           45000 kB\nHugePages_Total:       0\n";
}

TEST(HostMemory, MemAvailableOfAnOrdinaryMachine) {
  HostMemoryFiles f;
  f.meminfo = meminfo(24731708, 23982500);
  EXPECT_EQ(available_host_memory(f), 23982500 * kKiB);
}

TEST(HostMemory, ASandboxsMemAvailableOfZeroIsUnknownNotZero) {
  // gVisor writes MemFree and MemAvailable 0 when its usage count exceeds its total: "0 B is free" refused every lab
  // run on the GPU machine.
  HostMemoryFiles f;
  f.meminfo = "MemTotal:       131891044 kB\nMemFree:               0 kB\nMemAvailable:          0 kB\n";
  EXPECT_EQ(available_host_memory(f), std::nullopt);
}

TEST(HostMemory, MoreAvailableThanTheMachineHasIsUnknown) {
  HostMemoryFiles f;
  f.meminfo = meminfo(1000, 5000);
  EXPECT_EQ(available_host_memory(f), std::nullopt);
}

TEST(HostMemory, MissingOrGarbledFilesAreUnknown) {
  EXPECT_EQ(available_host_memory(HostMemoryFiles{}), std::nullopt);
  HostMemoryFiles f;
  f.meminfo = "MemTotal: 1000 kB\n";  // a kernel without MemAvailable
  EXPECT_EQ(available_host_memory(f), std::nullopt);
  f.meminfo = "MemTotal: lots\nMemAvailable: -5 kB\n";
  EXPECT_EQ(available_host_memory(f), std::nullopt);
  f.meminfo = "";
  EXPECT_EQ(available_host_memory(f), std::nullopt);
}

TEST(HostMemory, ACgroupV2LimitBelowTheMachineCounts) {
  HostMemoryFiles f;
  f.meminfo = meminfo(64 * 1024 * 1024, 60 * 1024 * 1024);  // 64 GiB, 60 free
  // 8 GiB limit, 3 GiB charged of which 1 GiB is inactive page cache: 6 GiB left.
  f.cgroups.push_back({"8589934592\n", "3221225472\n", "anon 2147483648\nfile 1073741824\ninactive_file 1073741824\n"});
  EXPECT_EQ(available_host_memory(f), 6 * kGiB);
}

TEST(HostMemory, ACgroupV2LimitOfMaxIsNoLimit) {
  HostMemoryFiles f;
  f.meminfo = meminfo(16 * 1024 * 1024, 10 * 1024 * 1024);
  f.cgroups.push_back({"max\n", "3221225472\n", std::nullopt});
  EXPECT_EQ(available_host_memory(f), 10 * 1024 * 1024 * kKiB);
}

TEST(HostMemory, CgroupV1sNoLimitNumberIsNoLimit) {
  HostMemoryFiles f;
  f.meminfo = meminfo(16 * 1024 * 1024, 10 * 1024 * 1024);
  f.cgroups.push_back({"9223372036854771712\n", "1242329088\n", "inactive_file 311267328\n"});
  EXPECT_EQ(available_host_memory(f), 10 * 1024 * 1024 * kKiB);
}

TEST(HostMemory, ACgroupAtItsLimitIsNotPlausibleAndTheOthersCount) {
  HostMemoryFiles f;
  f.meminfo = meminfo(16 * 1024 * 1024, 10 * 1024 * 1024);
  f.cgroups.push_back({"1073741824", "1073741824", "inactive_file 0\n"});  // "0 free"
  f.cgroups.push_back({"4294967296", "1073741824", std::nullopt});         // the cgroup above it: 3 GiB left
  EXPECT_EQ(available_host_memory(f), 3 * kGiB);
}

TEST(HostMemory, TheSmallestPlausibleReadingCounts) {
  HostMemoryFiles f;
  f.meminfo = meminfo(16 * 1024 * 1024, 2 * 1024 * 1024);  // 2 GiB available on the machine
  f.cgroups.push_back({"8589934592", "1073741824", std::nullopt});  // 7 GiB left in the cgroup
  EXPECT_EQ(available_host_memory(f), 2 * kGiB);
}

TEST(HostMemory, WithoutMeminfoACgroupLimitStillCounts) {
  HostMemoryFiles f;
  f.cgroups.push_back({"2147483648", "1073741824", std::nullopt});
  EXPECT_EQ(available_host_memory(f), 1 * kGiB);
  f.cgroups[0].usage.reset();  // a limit without its usage says nothing
  EXPECT_EQ(available_host_memory(f), std::nullopt);
}

void write(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path) << text;
}

TEST(HostMemory, ReadsTheCgroupV1FilesOfTheProcessAndThoseAboveIt) {
  test::TempDir root;
  write(root / "proc/meminfo", meminfo(16 * 1024 * 1024, 10 * 1024 * 1024));
  write(root / "proc/self/cgroup", "5:devices:/\n4:memory:/job/step\n3:cpu,cpuacct:/\n0::/\n");
  const auto v1 = root.path() / "sys/fs/cgroup/memory";
  write(v1 / "memory.limit_in_bytes", "9223372036854771712\n");
  write(v1 / "memory.usage_in_bytes", "5000000000\n");
  write(v1 / "job/memory.limit_in_bytes", "4294967296\n");  // 4 GiB for the job
  write(v1 / "job/memory.usage_in_bytes", "2147483648\n");
  write(v1 / "job/step/memory.limit_in_bytes", "9223372036854771712\n");
  write(v1 / "job/step/memory.usage_in_bytes", "1073741824\n");
  write(v1 / "job/step/memory.stat", "inactive_file 5\ntotal_inactive_file 7\n");
  const HostMemoryFiles files = read_host_memory_files(root.path().string());
  ASSERT_EQ(files.cgroups.size(), 3u);  // step, job, the root
  EXPECT_EQ(files.cgroups[0].stat, "inactive_file 5\ntotal_inactive_file 7\n");
  EXPECT_EQ(available_host_memory(files), 2 * kGiB);  // the job's 4 GiB less its 2 charged
}

TEST(HostMemory, ReadsTheCgroupV2FilesOfAContainerInItsOwnNamespace) {
  // Inside a container /proc/self/cgroup names a path that is not under its /sys/fs/cgroup, which is its own.
  test::TempDir root;
  write(root / "proc/meminfo", meminfo(16 * 1024 * 1024, 10 * 1024 * 1024));
  write(root / "proc/self/cgroup", "0::/../../system.slice/docker-1234.scope\n");
  write(root / "sys/fs/cgroup/memory.max", "2147483648\n");
  write(root / "sys/fs/cgroup/memory.current", "1610612736\n");
  write(root / "sys/fs/cgroup/memory.stat", "anon 536870912\ninactive_file 536870912\n");
  EXPECT_EQ(available_host_memory(read_host_memory_files(root.path().string())), 1 * kGiB);
}

TEST(HostMemory, AMachineWithoutTheFilesIsUnknown) {
  test::TempDir root;
  EXPECT_EQ(available_host_memory(read_host_memory_files(root.path().string())), std::nullopt);
}

TEST(HostMemory, ThisMachinesReadingIsPlausible) {
  // Wherever the tests run, a figure (when there is one) lies between nothing and the machine's memory.
  const auto free = available_host_memory();
  if (free) {
    EXPECT_GT(*free, 0u);
    EXPECT_LT(*free, std::uint64_t(1) << 50);
  }
}

}  // namespace
}  // namespace ks
