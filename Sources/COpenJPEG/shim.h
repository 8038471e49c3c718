// OpenJPEG (libopenjp2-7-dev): JPEG 2000, the format of most ePassport faces (EF.DG2).
#include <openjpeg.h>
