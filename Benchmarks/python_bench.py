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

# numpy's OpenBLAS (loaded with pyarrow and pandas) spins threads that take CPU from the pinned core.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
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

    arrow_tables(items, pinned)

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
        dask_frames(path, distributed, idkit_dask)
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


def damaged(items, seed):
    """Every fifth item damaged: a character changed, or one deleted (a line's length)."""
    import random
    rng = random.Random(seed)
    out = list(items)
    for i in range(0, len(out), 5):
        k = rng.randrange(len(out[i]))
        if out[i][k] != "\n":
            out[i] = out[i][:k] + (rng.choice("0123456789<ABZ") if i % 10 else "") + out[i][k + 1:]
    return out


def arrow_tables(items, pinned):
    """idkit.validate_table (issue 40): equality with `idkit validate --json` on 200,000 MRZs
    (valid, damaged, invalid), rates from a list and from an Arrow array, and peak memory."""
    import pyarrow as pa
    texts = damaged(items, 40)
    with tempfile.TemporaryDirectory() as tmp:
        path = pathlib.Path(tmp) / "damaged.txt"
        path.write_text("\n\n".join(texts) + "\n")
        cli = subprocess.run([str(IDKIT), "validate", "--json", "--reference-date", "2025-01-01", str(path)], capture_output=True)
    records = [json.loads(line) for line in cli.stdout.splitlines()]
    rows = idkit.validate_table(texts, reference_date="2025-01-01").to_pylist()
    def same(row, record):
        f = record["fields"]
        return (row["format"] == record["format"] and row["valid"] == record["valid"]
                and row["validWithDeviations"] == record["validWithDeviations"]
                and all(row[k] == v for k, v in f.items() if k not in ("dateOfBirth", "dateOfExpiry"))
                and row["dateOfBirthRaw"] == f["dateOfBirth"] and row["dateOfExpiryRaw"] == f["dateOfExpiry"]
                and [str(row[k]) if row[k] else None for k in ("dateOfBirth", "dateOfExpiry")]
                == [record["resolvedDates"]["dateOfBirth"], record["resolvedDates"]["dateOfExpiry"]]
                and [row["checkDigit" + k[0].upper() + k[1:]] for k in record["checkDigits"]] == list(record["checkDigits"].values())
                and row["errors"] == [e["code"] for e in record["errors"]] and row["warnings"] == [w["code"] for w in record["warnings"]]
                and row["deviations"] == [d["code"] for d in record["deviations"]] and row["lines"] == record["lines"])
    equal = sum(same(r, e) for r, e in zip(rows, records)) if len(rows) == len(records) else 0
    invalid = sum(not r["valid"] for r in records)
    row("idkit.validate_table = validate --json", f"{equal:,} / {len(texts):,}", "rows", f"({invalid:,} invalid or damaged)")
    del rows, records

    million = (items * 5)[:1_000_000]
    array = pa.array(million, pa.string())
    median, best = best_of(5, lambda: idkit.validate_table(million))
    row("idkit.validate_table, from a list (1M)", f"{len(million) / median:,.0f} [{len(million) / best:,.0f}]", "MRZs/s",
        "(target ≥ 1,500,000)")
    median, best = best_of(5, lambda: idkit.validate_table(array))
    table = idkit.validate_table(array)
    row("idkit.validate_table, from an Arrow array", f"{len(million) / median:,.0f} [{len(million) / best:,.0f}]", "MRZs/s",
        "(target ≥ 2,000,000)")
    # Peak memory in a fresh process: what the call adds to the process's resident memory at
    # its peak, against the table's size (the input made and settled first).
    probe = ("import gc, resource, subprocess, sys, idkit, pyarrow\n"
             f"stream = subprocess.run([{str(BENCH)!r}, 'make-stream', '200000', '--seed', '16'], capture_output=True).stdout.decode()\n"
             "items = [r for r in stream.split('\\n\\n') if r] * 5\n"
             "del stream\n"
             "if sys.argv[1] == 'arrow': items = pyarrow.array(items)\n"
             "gc.collect()\n"
             "resident = int(open('/proc/self/statm').read().split()[1]) * resource.getpagesize()\n"
             "table = idkit.validate_table(items)\n"
             # VmHWM, not ru_maxrss: a child's ru_maxrss starts from its parent's peak.
             "peak = next(int(l.split()[1]) for l in open('/proc/self/status') if l.startswith('VmHWM')) * 1024\n"
             "print(peak - resident, table.nbytes)\n")
    for form in ("list", "arrow"):
        peak, size = map(int, subprocess.run([sys.executable, "-c", probe, form], capture_output=True, text=True,
                                             check=True).stdout.split())
        row(f"  peak memory added / the table's size ({form})", f"{peak / size:.2f}x", "",
            f"({peak / 2**20:,.0f} / {size / 2**20:,.0f} MiB; target ≤ 2x)")
    del table, array, million


def dask_frames(path, distributed, idkit_dask):
    """idkit.dask.validate_frame on 2,000,000 MRZs from Parquet, 1 and 2 worker processes.

    Both clusters are up at once and the rounds alternate (one worker, then two), so that the
    ratio is taken between runs a second apart: on a shared 2-core VM the speed of the whole
    machine drifts by a fifth over a minute, more than the difference being measured."""
    import dask.dataframe as dd
    import pyarrow as pa
    import pyarrow.parquet as pq
    texts = [r for r in path.read_text().split("\n\n") if r]
    texts = (texts * 2)[:2_000_000]
    parquet = path.with_suffix(".parquet")
    pq.write_table(pa.table({"mrz": texts}), parquet, row_group_size=125_000)
    cluster = lambda workers: distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)
    with cluster(1) as one, distributed.Client(one, set_as_default=False) as client1, \
            cluster(2) as two, distributed.Client(two, set_as_default=False) as client2:
        frame = dd.read_parquet(str(parquet), split_row_groups=True)
        job = idkit_dask.validate_frame(frame, "mrz")["valid"].sum()
        # A first run loads pandas, pyarrow and the Parquet reader in each worker.
        for client in (client1, client2):
            assert client.compute(job).result() > 0
        times = {1: [], 2: []}
        for _ in range(9):
            for workers, client in ((1, client1), (2, client2)):
                t0 = time.perf_counter()
                client.compute(job).result()
                times[workers].append(time.perf_counter() - t0)
    for workers in (1, 2):
        median, best = statistics.median(times[workers]), min(times[workers])
        note = ""
        if workers == 2:
            paired = statistics.median(a / b for a, b in zip(times[1], times[2]))
            note = (f"({statistics.median(times[1]) / median:.2f}x one worker, median of the rounds' own ratios "
                    f"{paired:.2f}x; target ≥ 1.7x)")
        row(f"idkit.dask.validate_frame, {workers} worker{'s' if workers > 1 else ''} (2M, Parquet)",
            f"{len(texts) / median:,.0f} [{len(texts) / best:,.0f}]", "MRZs/s", note)


if __name__ == "__main__":
    main()
