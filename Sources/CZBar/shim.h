// zbar's C API (libzbar-dev): the image scanner for 1D symbologies and QR.
#include <zbar.h>
