# Writes a help2man include file (OUTPUT) whose section [SECTION] holds the --help of a program's parts, so that the
# man page shows every option the program has, taken from the program itself when the package is built:
#   cmake -DPROGRAM=path -DSECTION=COMMANDS -DOUTPUT=file [-DSUBCOMMANDS=ON] [-DHELP="arg|arg|--help"]
#     [-DTITLE=...] [-DINCLUDE=file] -P help_sections.cmake
# SUBCOMMANDS: one subsection per subcommand that `PROGRAM --help` lists under "Subcommands:" (CLI11), each with
# `PROGRAM NAME --help`. HELP: one subsection titled TITLE with the output of PROGRAM and these arguments (split
# at |). INCLUDE: a hand-written include file appended after the section.
cmake_minimum_required(VERSION 3.25)
foreach(required PROGRAM SECTION OUTPUT)
  if(NOT DEFINED ${required})
    message(FATAL_ERROR "help_sections.cmake needs -D${required}=...")
  endif()
endforeach()

function(help_of out_var)
  execute_process(COMMAND ${PROGRAM} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE text ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    string(REPLACE ";" " " shown "${ARGN}")
    message(FATAL_ERROR "`${PROGRAM} ${shown}` failed (${rc}): ${err}")
  endif()
  set(${out_var} "${text}" PARENT_SCOPE)
endfunction()

# Text as roff prints it: backslashes escaped, hyphens as minus signs (options stay copyable), and lines that
# roff or help2man would read as requests or section headers (starting with . ' or [) guarded by a zero-width \&.
function(roff_text out_var text)
  string(REPLACE "\\" "\\e" text "${text}")
  string(REPLACE "-" "\\-" text "${text}")
  string(REGEX REPLACE "(^|\n)([.'[])" "\\1\\\\&\\2" text "${text}")
  set(${out_var} "${text}" PARENT_SCOPE)
endfunction()

# A subsection titled `title` holding `text` line for line.
function(roff_block out_var title text)
  roff_text(title "${title}")
  roff_text(text "${text}")
  set(${out_var} ".SS ${title}\n.nf\n${text}\n.fi\n" PARENT_SCOPE)
endfunction()

set(body "[${SECTION}]\n")
if(SUBCOMMANDS)
  help_of(top --help)
  string(REGEX MATCH "\nSubcommands:\n(.*)" listed "${top}")
  if(NOT listed)
    message(FATAL_ERROR "`${PROGRAM} --help` lists no subcommands")
  endif()
  string(REGEX MATCHALL "\n  [a-z][a-z0-9-]*" names "\n${CMAKE_MATCH_1}")
  foreach(name IN LISTS names)
    string(STRIP "${name}" name)
    help_of(text ${name} --help)
    roff_block(block "${name}" "${text}")
    string(APPEND body "${block}")
  endforeach()
endif()
if(DEFINED HELP)
  string(REPLACE "|" ";" arguments "${HELP}")
  help_of(text ${arguments})
  roff_block(block "${TITLE}" "${text}")
  string(APPEND body "${block}")
endif()
if(DEFINED INCLUDE)
  file(READ "${INCLUDE}" extra)
  string(APPEND body "\n${extra}")
endif()
file(WRITE "${OUTPUT}.tmp" "${body}")
file(RENAME "${OUTPUT}.tmp" "${OUTPUT}")
