# ks_embed_file(TARGET target FILE path SYMBOL name)
# Turns a binary file into a C++ source defining `std::span<const unsigned char> name()` in namespace ks::embedded,
# so the sample assets travel inside the executables (no install step, no path lookups at run time).
function(ks_embed_file)
  cmake_parse_arguments(ARG "" "TARGET;FILE;SYMBOL" "" ${ARGN})
  set(out "${CMAKE_CURRENT_BINARY_DIR}/embedded_${ARG_SYMBOL}.cpp")
  add_custom_command(
    OUTPUT "${out}"
    COMMAND ${CMAKE_COMMAND} -DIN=${ARG_FILE} -DOUT=${out} -DSYMBOL=${ARG_SYMBOL}
            -P "${PROJECT_SOURCE_DIR}/cmake/EmbedFileScript.cmake"
    DEPENDS "${ARG_FILE}" "${PROJECT_SOURCE_DIR}/cmake/EmbedFileScript.cmake"
    COMMENT "Embedding ${ARG_FILE}")
  target_sources(${ARG_TARGET} PRIVATE "${out}")
endfunction()
