# cmake -DNM=nm -DFILES="a.a|b.o|program" -P links_no_regex.cmake: fails when any of FILES holds std::regex's code
# (its templates are instantiated in the objects that use them, so they show among the file's own symbols).
# libstdc++'s std::regex crashed the Python module's compile when numpy was imported first (gpu/usercode/text_scan.hpp
# says why); nothing that compiles or reads a user's kernel may bring it back.
string(REPLACE "|" ";" files "${FILES}")
if(NOT files)
  message(FATAL_ERROR "no files to read: give them as -DFILES=\"a|b\"")
endif()
foreach(file IN LISTS files)
  execute_process(COMMAND ${NM} -C --defined-only ${file} OUTPUT_VARIABLE symbols ERROR_VARIABLE errors
                  RESULT_VARIABLE status)
  if(NOT status EQUAL 0)
    message(FATAL_ERROR "nm could not list the symbols of ${file} (status ${status}): ${errors}\n"
                        "Build it (unstripped) before running this test.")
  endif()
  string(FIND "${symbols}" "std::__cxx11::basic_regex" at)
  if(NOT at EQUAL -1)
    string(SUBSTRING "${symbols}" ${at} 200 found)
    string(FIND "${found}" "\n" end)
    string(SUBSTRING "${found}" 0 ${end} found)  # to the end of its line (-1: all of it)
    message(FATAL_ERROR "${file} holds std::regex code, e.g.\n  ${found}\n"
                        "Read the text with gpu/usercode/text_scan.hpp's readers instead.")
  endif()
endforeach()
list(LENGTH files count)
message(STATUS "no std::regex in ${count} files")
