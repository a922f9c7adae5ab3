// `kernelscope` built without Qt 6: --screenshot only (headless_app.hpp).
#include "gui/headless_app.hpp"

int main(int argc, char** argv) { return ks::app::headless_app_main(argc, argv); }
