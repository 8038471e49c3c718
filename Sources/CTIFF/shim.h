// libtiff (libtiff-dev): TIFF scans from flatbed scanners, every page of a multi-page file.
#include <tiffio.h>
