# The Debian package (scripts/package: out/package/kernelscope_VERSION_amd64.deb): CPack's DEB generator over
# everything this build installs (the programs, packaging/'s desktop entry, icons, metainfo, man pages and data,
# and whatever other parts add with install(), such as the Python module). Its Depends are computed from the
# binaries by dpkg-shlibdeps, plus what they read or start at run time that no binary links (the global property
# KS_PACKAGE_DEPENDS: a part appends the Debian packages it needs, e.g. python3-numpy for the Python module).
#
# CUDA's libraries are no Debian packages, so the package depends on none of them: the CUDA runtime is linked
# statically (gpu/core/CMakeLists.txt), and cuBLAS, NVRTC and CUPTI are opened when first used
# (gpu/core/runtime_library, gpu/core/cuda/cupti_library): the programs start, and run on the CPU backend, on any
# Debian 12 machine; with an NVIDIA driver the CUDA backend works, and with the CUDA toolkit's libraries on the
# library path also cublas, your own kernels and the counters.
set_property(GLOBAL APPEND PROPERTY KS_PACKAGE_DEPENDS fonts-dejavu-core)  # the panels' and charts' text
if(TARGET ks_qt)  # the Qt app (a build without Qt 6 installs no kernelscope)
  # Qt's xcb platform plugin: libqt6gui6 only recommends it, and the window cannot open without it.
  set_property(GLOBAL APPEND PROPERTY KS_PACKAGE_DEPENDS qt6-qpa-plugins)
endif()

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME kernelscope)
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "explore GPU kernels: stencils, simulations, topology, timed against the GPU")
set(CPACK_PACKAGE_CONTACT "kernelscope maintainers <maintainers@users.noreply.a-seed-270c273c.example>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)  # the binaries without their symbols: about a quarter of their size
set(CPACK_INSTALL_DEFAULT_DIRECTORY_PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE GROUP_READ GROUP_EXECUTE
                                                WORLD_READ WORLD_EXECUTE)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)  # kernelscope_VERSION_amd64.deb
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# The long description; CPack puts the summary above it.
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "Load an image, pick a kernel (stencils, simulations, the basics lab, topology
sweeps), change its parameters and its CUDA block size, and read the time of
every kernel, upload and download against the GPU's measured copy bandwidth.
Every CUDA variant has a CPU reference it is checked against, and everything
also runs, slower, without an NVIDIA GPU.
.
This package holds the desktop app (kernelscope) and the command line
(kernelscope-cli). The CUDA backend needs an NVIDIA driver; matmul's cuBLAS
variants and compiling your own kernels need the CUDA 13 toolkit's libraries.")
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS OFF)
set(CPACK_DEBIAN_PACKAGE_SUGGESTS "openmpi-bin")  # mpirun spreads topology sweeps over processes and hosts
if(TARGET ks_qt)
  # Mesa's software rasteriser: the window and --screenshot where there is no GPU driver's GL.
  set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "libgl1-mesa-dri")
endif()
set(CPACK_DEBIAN_PACKAGE_CONTROL_STRICT_PERMISSION ON)
set(CPACK_DEBIAN_COMPRESSION_TYPE xz)

# CPack's configuration is written once the top-level CMakeLists.txt is done, so that the Depends added by parts
# configured after this file still count.
function(ks_write_package_config)
  if(TARGET ks_python)  # the Python module (python/, KS_WITH_PYTHON), in dist-packages: Debian's python3 and numpy
    set_property(GLOBAL APPEND PROPERTY KS_PACKAGE_DEPENDS python3 python3-numpy)
  endif()
  get_property(depends GLOBAL PROPERTY KS_PACKAGE_DEPENDS)
  list(REMOVE_DUPLICATES depends)
  list(JOIN depends ", " CPACK_DEBIAN_PACKAGE_DEPENDS)  # dpkg-shlibdeps' list is added to these
  include(CPack)
endfunction()
cmake_language(DEFER DIRECTORY ${PROJECT_SOURCE_DIR} CALL ks_write_package_config)
