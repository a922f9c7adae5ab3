// The embedded data itself is generated at build time (cmake/EmbedFile.cmake); this file anchors the library.
#include "assets.hpp"
