"""Batches on a cluster (issue 16): idkit.dask on a distributed.LocalCluster of 2 worker
processes over a generated file of 200,000 MRZs gives the records `idkit validate --json` gives
for the same file, in the same order."""
import json
import pathlib
import random
import subprocess

import pytest

distributed = pytest.importorskip("distributed")
import idkit.dask  # noqa: E402

from support import ROOT, built  # noqa: E402
COUNT = 200_000




@pytest.fixture(scope="module")
def mrz_file(tmp_path_factory) -> pathlib.Path:
    # Distinct generated MRZs (idkit-bench make-stream: seeded, blank lines between records);
    # every seventh with one character changed so that a check digit fails or a field breaks,
    # and every 1,000th as a JSON record with an id.
    stream = subprocess.run([str(built("idkit-bench")), "make-stream", str(COUNT), "--seed", "16", "--allow-debug"],
                            capture_output=True, check=True).stdout.decode()
    records = [r for r in stream.split("\n\n") if r]
    assert len(records) == COUNT
    rng = random.Random(16)
    for i in range(0, COUNT, 7):
        text = records[i]
        k = rng.randrange(len(text))
        if text[k] != "\n":
            records[i] = text[:k] + rng.choice("0123456789<ABZ") + text[k + 1:]
    for i in range(500, COUNT, 1000):
        records[i] = json.dumps({"id": f"r{i}", "lines": records[i].split("\n")})
    path = tmp_path_factory.mktemp("dask") / "mrzs.txt"
    path.write_text("\n\n".join(records) + "\n")
    return path


def test_dask_on_two_workers_equals_the_command_line(mrz_file):
    cli = subprocess.run([str(built("idkit")), "validate", "--json", "--reference-date", "2025-01-01", str(mrz_file)],
                         capture_output=True, check=False)
    assert cli.returncode == 1, cli.stderr  # some records are invalid
    expected = [json.loads(line) for line in cli.stdout.splitlines()]
    assert len(expected) == COUNT

    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            distributed.Client(cluster):
        bag = idkit.dask.read_mrz_file(str(mrz_file), blocksize=1_000_000, reference_date="2025-01-01")
        assert bag.npartitions > 2
        records = bag.compute()

    assert len(records) == COUNT
    valid = sum(r["valid"] for r in records)
    assert 0 < valid < COUNT
    # Each record equals the command line's, member for member; `input` says where a record was
    # in its input (the file and line there, the partition's batch here), and the id of a JSON
    # record is kept by both.
    mismatches = [i for i, (a, b) in enumerate(zip(records, expected))
                  if {k: v for k, v in a.items() if k != "input"} != {k: v for k, v in b.items() if k != "input"}]
    assert mismatches == []
    assert [r["input"].get("id") for r in records] == [r["input"].get("id") for r in expected]
    assert sum(1 for r in records if "id" in r["input"]) == COUNT // 1000


def test_validate_dataframe_adds_the_verdicts():
    pd = pytest.importorskip("pandas")
    import dask.dataframe as dd

    specimen = ("P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\n"
                "L898902C36UTO7408122F1204159ZE184226B<<<<<10")
    frame = dd.from_pandas(pd.DataFrame({"mrz": [specimen, "HELLO", specimen.replace("L898902C3", "L898902C4")]}), npartitions=2)
    out = idkit.dask.validate_dataframe(frame, reference_date="2010-01-01").compute(scheduler="synchronous")
    assert out["valid"].tolist() == [True, False, False]
    numbers = out["documentNumber"].tolist()
    assert numbers[0] == "L898902C3" and pd.isna(numbers[1]) and numbers[2] == "L898902C4"
    assert json.loads(out["record"].iloc[0])["fields"]["secondaryIdentifier"] == "ANNA MARIA"


def test_parse_aamva_bag_keeps_errors_in_place():
    import dask.bag as db

    payload = (ROOT / "TestVectors/aamva/generated/v10-dl-va.bin").read_bytes()
    out = idkit.dask.parse_aamva_bag(db.from_sequence([payload, b"garbage"], npartitions=1)).compute(scheduler="synchronous")
    assert out[0]["fields"]["lastName"] == "GARCIA"
    assert out[1] == {"error": {"kind": "notAAMVA", "message": out[1]["error"]["message"], "offset": 0}}
