// giflib (libgif-dev): GIF images (the zxing projects' test suites hold many).
#include <gif_lib.h>
