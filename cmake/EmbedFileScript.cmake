# Script mode helper for ks_embed_file: IN, OUT, SYMBOL.
file(READ "${IN}" hex HEX)
string(LENGTH "${hex}" n)
math(EXPR bytes "${n} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," body "${hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)" "\\1\n" body "${body}")
file(WRITE "${OUT}" "// Generated from ${IN}; do not edit.\n#include <cstddef>\n#include <span>\n"
  "namespace ks::embedded {\nnamespace { const unsigned char data_${SYMBOL}[${bytes}] = {\n${body}\n}; }\n"
  "std::span<const unsigned char> ${SYMBOL}() { return {data_${SYMBOL}, ${bytes}}; }\n}\n")
