// OpenCV 4 (Debian's libopencv-dnn-dev and libopencv-core-dev) is C++ only. This module exists so
// that SwiftPM finds its include path and libraries through pkg-config (scripts/pkgconfig/
// idkit-opencv.pc) for the COpenCVShim target; Swift never includes OpenCV itself.
#pragma once
