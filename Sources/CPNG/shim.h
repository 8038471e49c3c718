// libpng's simplified API (png_image_*): decodes any PNG to 8-bit gray without setjmp in Swift.
#include <png.h>
