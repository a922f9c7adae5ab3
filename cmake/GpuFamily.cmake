# ks_add_gpu_family(NAME [DEPENDS family...])
# Builds the family of kernels or services in the calling folder (gpu/NAME) as the static library ks_NAME, whose
# headers are found as "NAME/..." and which may include only its own headers and those of the families it
# DEPENDS on (and their dependencies): each family's include root is a folder of the build tree holding one
# link, NAME -> gpu/NAME, so a header of any other family is not on the compiler's path and including it fails
# to build. (gpu/ itself is never an include root of a family; app/, ui/ and tests/ see it through ks_gpu.)
#
# Sources are picked up by folder (recursively) so that adding a kernel is adding files:
#   *.cpp          always, except those matched by ks_gpu_exclude (the optional parts, gpu/CMakeLists.txt)
#   *.cu           only with the CUDA backend
#   *_nocuda.cpp   only without it (stubs that throw core/no_cuda.hpp's error)
# Every source and header of the family that this configuration may compile is appended to the global property
# KS_GPU_FILES, from which gpu/CMakeLists.txt takes the Source panel's files and the include check's list.
function(ks_add_gpu_family name)
  cmake_parse_arguments(PARSE_ARGV 1 arg "" "" "DEPENDS")
  set(dir ${CMAKE_CURRENT_SOURCE_DIR})
  file(GLOB_RECURSE cpp CONFIGURE_DEPENDS ${dir}/*.cpp)
  file(GLOB_RECURSE cu CONFIGURE_DEPENDS ${dir}/*.cu)
  file(GLOB_RECURSE cuh CONFIGURE_DEPENDS ${dir}/*.cuh)
  file(GLOB_RECURSE headers CONFIGURE_DEPENDS ${dir}/*.hpp ${dir}/*.h)
  foreach(regex IN LISTS ks_gpu_exclude)
    list(FILTER cpp EXCLUDE REGEX "${regex}")
  endforeach()
  set(nocuda ${cpp})
  list(FILTER nocuda INCLUDE REGEX "_nocuda\\.cpp$")
  list(FILTER cpp EXCLUDE REGEX "_nocuda\\.cpp$")
  set_property(GLOBAL APPEND PROPERTY KS_GPU_FILES ${cpp} ${cu} ${nocuda} ${cuh} ${headers})

  set(target ks_${name})
  if(KS_HAVE_CUDA)
    add_library(${target} STATIC ${cpp} ${cu})
    set_target_properties(${target} PROPERTIES CUDA_SEPARABLE_COMPILATION OFF)
  else()
    add_library(${target} STATIC ${cpp} ${nocuda})
  endif()

  set(root ${PROJECT_BINARY_DIR}/include/${target})
  file(MAKE_DIRECTORY ${root})
  file(CREATE_LINK ${dir} ${root}/${name} SYMBOLIC)
  target_include_directories(${target} PUBLIC ${root})
  foreach(dep IN LISTS arg_DEPENDS)
    target_link_libraries(${target} PUBLIC ks_${dep})
  endforeach()
  target_link_libraries(${target} PRIVATE ks_warnings fmt::fmt)
  add_dependencies(${target} ks_gpu_include_check)
endfunction()
