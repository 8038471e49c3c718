// libheif (libheif-dev): HEIC/HEIF, the iPhone's default photo format.
#include <libheif/heif.h>
