// libwebp (libwebp-dev): WebP phone uploads and the zxing projects' test images.
#include <webp/decode.h>
#include <webp/demux.h>
