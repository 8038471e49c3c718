#!/usr/bin/env python3
"""Start-up of the commands that decode no image, against a Swift program that only imports
Foundation and prints a line (the floor any Swift command pays), in one run: the median of 21
runs each of `hello`, `idkit validate` of one MRZ, `idkit aamva` of one payload, and of
`idkit scan` of one photo (which idkit hands to idkit-full), for this build and, when given,
another (BASELINE=path/to/idkit of an earlier build).

    python3 Benchmarks/startup.py HELLO IDKIT [BASELINE_IDKIT]
"""
import statistics
import subprocess
import sys
import time

L1 = "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<"
L2 = "L898902C36UTO7408122F1204159ZE184226B<<<<<10"
RUNS = 21
PAYLOAD = "TestVectors/aamva/generated/v10-dl-va.bin"


def median_ms(cmd, stdin=None):
    times = []
    for _ in range(RUNS):
        t = time.perf_counter()
        subprocess.run(cmd, input=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        times.append((time.perf_counter() - t) * 1000)
    return statistics.median(times)


def main():
    hello, idkit = sys.argv[1], sys.argv[2]
    builds = [("this build", idkit)] + ([("baseline", sys.argv[3])] if len(sys.argv) > 3 else [])
    payload = open(PAYLOAD, "rb").read()
    floor = median_ms([hello])
    print(f"{'program':32} {'median ms':>10} {'÷ hello':>8}")
    print(f"{'hello (Foundation, one line)':32} {floor:10.1f} {1:8.2f}")
    for name, binary in builds:
        rows = [("validate, one MRZ", [binary, "validate", L1, L2], None)]
        rows.append(("aamva, one payload", [binary, "aamva", "-"], payload))
        rows.append(("scan, one photo", [binary, "scan", "TestVectors/images/clean-00-td3.jpg"], None))
        for label, cmd, stdin in rows:
            ms = median_ms(cmd, stdin)
            print(f"{name + ': ' + label:32} {ms:10.1f} {ms / floor:8.2f}")


if __name__ == "__main__":
    main()
