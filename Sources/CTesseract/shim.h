// Tesseract 5 (libtesseract-dev) is C++ underneath its C API, and that C API lets exceptions
// through. This module exists so that SwiftPM finds Tesseract's include path and library through
// pkg-config for the CTesseractShim target; Swift never includes it.
#pragma once
