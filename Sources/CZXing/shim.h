// zxing-cpp (libzxing-dev) is C++ only. This module exists so that SwiftPM finds its include
// path and library through pkg-config for the CZXingShim target; Swift never includes it.
#pragma once
