#pragma once
// Marks functions shared verbatim by the CPU reference and the CUDA kernels.
#if defined(__CUDACC__)
#define KS_HD __host__ __device__ __forceinline__
#else
#define KS_HD inline
#endif
