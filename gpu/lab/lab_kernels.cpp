// The lab kernels, one line per family. To add a family: its files under gpu/lab/<family>/, its
// add_<family>_kernels declared and called below (see "How to add a lab kernel" in lab_kernel.hpp).
#include "lab/lab_kernel.hpp"
#include "registry/registry.hpp"

namespace ks::lab {

void add_vecadd_kernels(LabKernelList& list);  // gpu/lab/vecadd: vecadd, saxpy

// lab-reduce-matmul: reduce, integrate2d, matmul
void add_reduce_kernels(LabKernelList& list);       // gpu/lab/reduce: reduce
void add_integrate2d_kernels(LabKernelList& list);  // gpu/lab/integrate2d: integrate2d
void add_matmul_kernels(LabKernelList& list);       // gpu/lab/matmul: matmul

void add_sort_kernels(LabKernelList& list);    // gpu/lab/sort: sort
void add_kmeans_kernels(LabKernelList& list);  // gpu/lab/kmeans: kmeans

LabKernelList builtin_lab_kernels() {
  LabKernelList list;
  add_vecadd_kernels(list);

  // reduce, integrate2d, matmul
  add_reduce_kernels(list);
  add_integrate2d_kernels(list);
  add_matmul_kernels(list);

  add_sort_kernels(list);
  add_kmeans_kernels(list);

  return list;
}

}  // namespace ks::lab

namespace ks {

void register_lab_kernels(KernelRegistry& registry) {
  for (auto& kernel : lab::builtin_lab_kernels()) registry.add(lab::lab_kernel_spec(std::move(kernel)));
}

}  // namespace ks
