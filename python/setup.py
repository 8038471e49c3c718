"""Bundles the built libidkit into the package: `pip install ./python` after the Swift build.

The library is taken from, in order: $IDKIT_LIBRARY, the repository's .build/release, then
.build/debug (`swift build` names it libIDKitC.so; it is installed as idkit/libidkit.so). When none
is there the package installs without it and finds the library at import time (IDKIT_LIBRARY, or
a libidkit.so on the loader's path), or says how to build it.
"""
import os
import pathlib
import shutil

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = pathlib.Path(__file__).resolve().parent


def built_library():
    if os.environ.get("IDKIT_LIBRARY"):
        return pathlib.Path(os.environ["IDKIT_LIBRARY"])
    for config in ("release", "debug"):
        candidate = HERE.parent / ".build" / config / "libIDKitC.so"
        if candidate.exists():
            return candidate
    return None


class BuildWithLibrary(build_py):
    def run(self):
        super().run()
        library = built_library()
        if library is not None:
            target = pathlib.Path(self.build_lib) / "idkit" / "libidkit.so"
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(library.resolve(), target)
            print(f"idkit: bundled {library}")
        else:
            print("idkit: no built libidkit found (run `swift build -c release` in the repository first); "
                  "the package will look for it at import time")


class PlatformDistribution(Distribution):
    """The wheel holds a native library: not a pure-Python wheel."""

    def has_ext_modules(self):
        return True


setup(cmdclass={"build_py": BuildWithLibrary}, distclass=PlatformDistribution)
