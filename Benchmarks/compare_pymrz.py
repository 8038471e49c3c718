#!/usr/bin/env python3
"""Side by side: IDKit against PyPI's `mrz` package (Arg0s1080/mrz) on the same test vectors.

    make compare                (or: pip install mrz && python3 Benchmarks/compare_pymrz.py)

Prints the speed of each as MRZs per second and IDKit's as a ratio to mrz's, then every case
where the two verdicts differ, with mrz's own report and IDKit's errors and warnings as the reason.
The French 1988 ID is not a layout `mrz` reads; those cases are counted and skipped.
"""
import json
import pathlib
import subprocess
import sys
import time

try:
    from mrz.checker.mrva import MRVACodeChecker
    from mrz.checker.mrvb import MRVBCodeChecker
    from mrz.checker.td1 import TD1CodeChecker
    from mrz.checker.td2 import TD2CodeChecker
    from mrz.checker.td3 import TD3CodeChecker
except ImportError:
    sys.exit("compare_pymrz: needs PyPI's mrz package: python3 -m pip install mrz")

ROOT = pathlib.Path(__file__).resolve().parent.parent
IDKIT = ROOT / ".build/release/idkit"
CHECKERS = {"TD1": TD1CodeChecker, "TD2": TD2CodeChecker, "TD3": TD3CodeChecker,
            "MRVA": MRVACodeChecker, "MRVB": MRVBCodeChecker}
REPEAT = 2000


def load():
    cases = []
    for name in ("specimens", "invalid", "tricky"):
        data = json.loads((ROOT / "TestVectors/mrz" / (name + ".json")).read_text())
        cases += [c for c in data["cases"]]
    return cases, data["referenceDate"]


def main():
    if not IDKIT.exists():
        sys.exit("compare_pymrz: build first: swift build -c release")
    cases, reference = load()
    usable = [c for c in cases if c["expected"]["format"] in CHECKERS]
    skipped = len(cases) - len(usable)

    # Verdicts.
    stream = "".join(json.dumps({"id": c["id"], "lines": c["lines"]}) + "\n" for c in usable)
    out = subprocess.run([str(IDKIT), "validate", "--json", "--reference-date", reference, "-"],
                         input=stream, capture_output=True, text=True).stdout
    ours = {}
    for line in out.splitlines():
        o = json.loads(line)
        ours[o["input"]["id"]] = o
    theirs = {}
    for c in usable:
        checker = CHECKERS[c["expected"]["format"]]("\n".join(c["lines"]))
        theirs[c["id"]] = (bool(checker), [f for f in checker.report.falses], list(checker.report.warnings))

    # Speed: the same MRZs, REPEAT times over. mrz in-process; idkit as a command over a stream
    # (its process start is included, so the ratio is if anything unfair to idkit).
    texts = [(CHECKERS[c["expected"]["format"]], "\n".join(c["lines"])) for c in usable]
    start = time.perf_counter()
    for _ in range(REPEAT // 20):
        for checker, text in texts:
            bool(checker(text))
    theirs_rate = len(texts) * (REPEAT // 20) / (time.perf_counter() - start)
    # Plain records separated by blank lines (what `idkit validate` reads fastest; the JSON-lines
    # input above carries ids for the verdicts and costs a JSON parse per line).
    plain = "".join("\n".join(c["lines"]) + "\n\n" for c in usable)
    big = plain * REPEAT
    start = time.perf_counter()
    subprocess.run([str(IDKIT), "validate", "--json", "--reference-date", reference, "-"],
                   input=big, stdout=subprocess.DEVNULL, text=True, check=False)
    ours_rate = len(usable) * REPEAT / (time.perf_counter() - start)

    print("cases: %d compared, %d skipped (French 1988 ID: not a layout mrz reads)" % (len(usable), skipped))
    print("PyPI mrz %s:        %12.0f MRZs/s (in-process checker)" % (_version(), theirs_rate))
    print("idkit validate --json: %12.0f MRZs/s (stream of %d MRZs, process start included)" % (ours_rate, len(usable) * REPEAT))
    print("ratio:                 %12.1f x" % (ours_rate / theirs_rate))
    print()
    disagreements = 0
    for c in usable:
        mine = ours[c["id"]]
        their_ok, falses, warnings = theirs[c["id"]]
        if mine["valid"] == their_ok:
            continue
        disagreements += 1
        reasons = [e["message"] for e in mine["errors"]] or ["all check digits hold"]
        if mine["warnings"]:
            reasons.append("warnings: " + "; ".join(w["message"] for w in mine["warnings"]))
        print("%-40s idkit %-7s mrz %-7s" % (c["id"], "valid" if mine["valid"] else "invalid",
                                             "valid" if their_ok else "invalid"))
        print("    mrz says:   %s" % ("; ".join(str(f) for f in falses) or "(no falses)"))
        print("    idkit says: %s" % " | ".join(reasons))
    print("\n%d disagreement(s)" % disagreements)


def _version():
    try:
        from importlib.metadata import version
        return version("mrz")
    except Exception:  # noqa: BLE001
        return "?"


if __name__ == "__main__":
    main()
