#!/usr/bin/env python3
"""IDKit from Python (issue 16), side by side in one run with PyPI's `mrz` on the same MRZs.

    make bench-python        (release build; the package installed in .build/python-venv)

On one core (the process pinned to CPU 0): a single `idkit.validate_mrz` call, `validate_many`
into dicts, `parse_aamva`, and PyPI `mrz`'s checkers on the same generated MRZs. Then batches:
`idkit validate --json` over a file (the command line's stream, every core) and the same file
through `idkit.dask` on a LocalCluster with 1 and 2 worker processes. Also the floor no binding
can go under: parsing the answers' JSON into dicts alone (orjson, garbage collector paused).
"""
import gc
import json
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
BENCH = ROOT / ".build/release/idkit-bench"
IDKIT = ROOT / ".build/release/idkit"

import idkit  # noqa: E402
from idkit import _native  # noqa: E402


def best_of(rounds, fn):
    times = []
    for _ in range(rounds):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), min(times)


def collector_paused(load, blobs):
    """A round of `load` over every blob, the garbage collector paused (as validate_many does)."""
    def run():
        gc.disable()
        try:
            for b in blobs:
                load(b)
        finally:
            gc.enable()
    return run


def row(name, value, unit, note=""):
    print(f"{name:44s} {value:>12s} {unit:10s} {note}")


def main():
    stream = subprocess.run([str(BENCH), "make-stream", "200000", "--seed", "16"], capture_output=True, check=True).stdout.decode()
    items = [r for r in stream.split("\n\n") if r]
    pinned = hasattr(os, "sched_setaffinity")
    if pinned:
        os.sched_setaffinity(0, {0})
    print(f"IDKit {idkit.version()} from Python {sys.version.split()[0]} (cffi, orjson); "
          f"{'pinned to one core' if pinned else 'not pinned'}; median [best] of rounds\n")

    n = 100_000
    sample = items[:n]
    def singles():
        for t in sample:
            idkit.validate_mrz(t)       # each answer dropped, as a request handler would
    median, best = best_of(5, singles)
    row("idkit.validate_mrz (one call)", f"{median / n * 1e6:.2f} [{best / n * 1e6:.2f}]", "µs/call", "(target ≤ 5 µs)")

    median, best = best_of(5, lambda: idkit.validate_many(items))
    many_rate = len(items) / median
    row("idkit.validate_many (200k MRZs into dicts)", f"{len(items) / median:,.0f} [{len(items) / best:,.0f}]", "MRZs/s",
        "(target ≥ 400,000)")

    chunks = ["\n\n".join(items[i:i + 2048]).encode() for i in range(0, len(items), 2048)]
    median, best = best_of(5, lambda: [_native.call_raw(_native.mrz_validate_many, c, None) for c in chunks])
    row("  of it: libidkit (judge + write JSON)", f"{median / len(items) * 1e6:.2f} [{best / len(items) * 1e6:.2f}]", "µs/MRZ")
    raws = [_native.call_raw(_native.mrz_validate_many, c, None) for c in chunks]

    median, best = best_of(5, collector_paused(_native.loads, raws))
    row("  of it: JSON into dicts alone (orjson)", f"{median / len(items) * 1e6:.2f} [{best / len(items) * 1e6:.2f}]", "µs/MRZ",
        f"(a ceiling of {len(items) / best:,.0f}/s)")

    # CPython's own marshal making the same dicts, lists and strings from a binary form (no text
    # to scan): C code that builds dicts without JSON is no faster than orjson (which caches keys).
    import marshal
    records = [r for raw in raws for r in _native.loads(raw)]
    blobs = [marshal.dumps(records[i:i + 2048]) for i in range(0, len(records), 2048)]
    median, best = best_of(5, collector_paused(marshal.loads, blobs))
    row("  the same dicts made by marshal instead", f"{median / len(items) * 1e6:.2f} [{best / len(items) * 1e6:.2f}]", "µs/MRZ",
        f"(a ceiling of {len(items) / best:,.0f}/s)")
    del records, blobs

    payload = (ROOT / "TestVectors/aamva/generated/v10-dl-va.bin").read_bytes()
    m = 20_000
    def payloads():
        for _ in range(m):
            idkit.parse_aamva(payload)
    median, best = best_of(5, payloads)
    row("idkit.parse_aamva (v10 payload)", f"{median / m * 1e6:.2f} [{best / m * 1e6:.2f}]", "µs/call", "(target ≤ 15 µs)")
    raw = _native.call_raw(_native.aamva_parse, payload, None)
    def payload_json():
        for _ in range(m):
            _native.loads(raw)
    median, best = best_of(5, payload_json)
    row("  of it: JSON into dicts alone (orjson)", f"{median / m * 1e6:.2f} [{best / m * 1e6:.2f}]", "µs/call", f"({len(raw)} bytes)")

    try:
        from mrz.checker.td1 import TD1CodeChecker
        from mrz.checker.td2 import TD2CodeChecker
        from mrz.checker.td3 import TD3CodeChecker
        checkers = {30: TD1CodeChecker, 36: TD2CodeChecker, 44: TD3CodeChecker}
        k = 20_000
        subset = items[:k]
        median, best = best_of(3, lambda: [checkers[len(t.split("\n")[0])](t) for t in subset])
        row("PyPI mrz checker (same MRZs)", f"{k / median:,.0f} [{k / best:,.0f}]", "MRZs/s",
            f"(validate_many: {many_rate / (k / median):.1f}x)")
        median, best = best_of(3, lambda: [checkers[len(t.split("\n")[0])](t).fields() for t in subset])
        row("PyPI mrz checker + fields()", f"{k / median:,.0f} [{k / best:,.0f}]", "MRZs/s")
    except ImportError:
        row("PyPI mrz", "not installed", "", "(pip install mrz)")

    if pinned:
        os.sched_setaffinity(0, set(range(os.cpu_count() or 1)))
    big = subprocess.run([str(BENCH), "make-stream", "1000000", "--seed", "17"], capture_output=True, check=True).stdout
    with tempfile.TemporaryDirectory() as tmp:
        path = pathlib.Path(tmp) / "mrzs.txt"
        path.write_bytes(big)
        count = 1_000_000
        t0 = time.perf_counter()
        subprocess.run([str(IDKIT), "validate", "--json", str(path)], stdout=subprocess.DEVNULL, check=False)
        row("idkit validate --json (1M MRZs, every core)", f"{count / (time.perf_counter() - t0):,.0f}", "MRZs/s", "to /dev/null")
        try:
            import distributed
            import idkit.dask as idkit_dask
        except ImportError:
            row("idkit.dask", "not installed", "", "(pip install 'idkit[dask]')")
            return
        for workers in (1, 2):
            with distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
                    distributed.Client(cluster) as client:
                client.run(lambda: __import__("idkit").version())  # the library loaded in each worker
                t0 = time.perf_counter()
                counted = idkit_dask.read_mrz_file(str(path), blocksize=4_000_000).count().compute()
                elapsed = time.perf_counter() - t0
                assert counted == count
                row(f"idkit.dask, {workers} worker{'s' if workers > 1 else ''} (1M MRZs, judged)", f"{count / elapsed:,.0f}", "MRZs/s",
                    "records stay on the workers")
                t0 = time.perf_counter()
                got = idkit_dask.read_mrz_file(str(path), blocksize=4_000_000).compute()
                elapsed = time.perf_counter() - t0
                assert len(got) == count
                del got
                row(f"idkit.dask, {workers} worker{'s' if workers > 1 else ''} (1M, all back as dicts)", f"{count / elapsed:,.0f}", "MRZs/s")


if __name__ == "__main__":
    main()
