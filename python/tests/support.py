"""What the tests share: the repository's root and the built executables they compare against."""
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def built(name: str) -> pathlib.Path:
    """A built executable of the repository (debug first, as `make test` builds it); the test is
    skipped, saying why, when there is none."""
    for config in ("debug", "release"):
        path = ROOT / ".build" / config / name
        if path.exists():
            return path
    pytest.skip(f"no built {name}: run swift build first")
