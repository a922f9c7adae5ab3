# ks_embed_sources(TARGET target ROOT dir FILES f1 f2 ...)
# Embeds the given source files, as they are on disk when the target builds, into a generated C++ file that defines
# ks::embedded::kernel_source_files(): each file's path relative to ROOT and its bytes. The Source panel shows them,
# so a teacher sees the code that was compiled, not a copy someone keeps up to date. Any listed file that changes
# regenerates the table (they are all DEPENDS of the command).
function(ks_embed_sources)
  cmake_parse_arguments(ARG "" "TARGET;ROOT" "FILES" ${ARGN})
  set(list_file "${CMAKE_CURRENT_BINARY_DIR}/kernel_source_files.txt")
  set(out "${CMAKE_CURRENT_BINARY_DIR}/embedded_kernel_sources.cpp")
  list(SORT ARG_FILES)
  string(REPLACE ";" "\n" lines "${ARG_FILES}")
  file(CONFIGURE OUTPUT "${list_file}" CONTENT "${lines}\n" @ONLY)
  add_custom_command(
    OUTPUT "${out}"
    COMMAND ${CMAKE_COMMAND} -DLIST=${list_file} -DROOT=${ARG_ROOT} -DOUT=${out}
            -P "${PROJECT_SOURCE_DIR}/cmake/EmbedSourcesScript.cmake"
    DEPENDS ${ARG_FILES} "${list_file}" "${PROJECT_SOURCE_DIR}/cmake/EmbedSourcesScript.cmake"
    COMMENT "Embedding the kernels' source files for the Source panel")
  target_sources(${ARG_TARGET} PRIVATE "${out}")
endfunction()
