#!/usr/bin/env python3
"""Writes the key paths of the command line's JSON contracts, the golden files of
Tests/IDKitScanTests/ContractTests.swift: a test fails when a key of a contract appears, goes or
is renamed. Made from the built binary's own output on committed test vectors:

    scan.keys       idkit scan --json TestVectors/images/clean-00-td3.jpg
    barcode.keys    idkit barcode --json TestVectors/pdf417/images/phone-00.jpg

A path is the keys from the top joined by `.`, `[]` for an array's elements; objects keyed by data
(AAMVA element identifiers, a field's readings by source) are not descended into. Rewrite only
when a contract changes on purpose, and say so in CHANGELOG.md and the contract's description
(docs/contracts.md, the README).

    python3 TestVectors/contracts/make_keys.py [path/to/idkit]
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DATA_KEYED = {"elements", "readings"}


def paths(value, prefix, out):
    if isinstance(value, dict):
        for k, v in value.items():
            p = prefix + "." + k if prefix else k
            out.add(p)
            if k not in DATA_KEYED:
                paths(v, p, out)
    elif isinstance(value, list):
        for v in value:
            paths(v, prefix + "[]", out)


def main():
    idkit = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, ".build", "release", "idkit")
    for name, args in [("scan", ["scan", "--json", "--reference-date", "2025-01-01", "TestVectors/images/clean-00-td3.jpg"]),
                       ("barcode", ["barcode", "--json", "TestVectors/pdf417/images/phone-00.jpg"])]:
        line = subprocess.run([idkit] + args, capture_output=True, text=True, cwd=ROOT).stdout.splitlines()[0]
        out = set()
        paths(json.loads(line), "", out)
        with open(os.path.join(HERE, name + ".keys"), "w") as f:
            f.write("# key paths of `idkit %s` (TestVectors/contracts/make_keys.py)\n" % " ".join(args))
            f.write("\n".join(sorted(out)) + "\n")
        print(name, len(out))


if __name__ == "__main__":
    main()
