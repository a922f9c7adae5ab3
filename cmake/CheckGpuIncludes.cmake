# cmake -DLIST=file -P CheckGpuIncludes.cmake
# Fails when a file of gpu/ (one path a line in LIST) includes a path with `..` or an absolute path: such an
# include is found relative to the including file, whatever the family's include roots allow, so it would reach
# around the seams between the families (cmake/GpuFamily.cmake). Run at every build where a listed file changed.
file(STRINGS "${LIST}" files)
set(bad "")
foreach(f IN LISTS files)
  file(STRINGS "${f}" lines REGEX "^[ \t]*#[ \t]*include[ \t]*[\"<]([^\">]*\\.\\.[/\\\\]|/)")
  foreach(line IN LISTS lines)
    string(STRIP "${line}" line)
    string(APPEND bad "\n  ${f}: ${line}")
  endforeach()
endforeach()
if(bad)
  message(FATAL_ERROR "these includes reach around the gpu/ families' include roots with `..` or an absolute "
                      "path:${bad}\nInclude \"family/...\" of a family this one may use (its DEPENDS in "
                      "gpu/<family>/CMakeLists.txt, docs/ARCHITECTURE.md); what two families share belongs in "
                      "gpu/core.")
endif()
