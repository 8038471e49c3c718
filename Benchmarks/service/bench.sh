#!/usr/bin/env bash
# `make bench-service` (issue 15): idkit serve under wrk (keep-alive, 64 connections, wrk sharing
# this machine's cores), side by side in the same run with a FastAPI service on uvicorn wrapping
# PyPI's mrz (Benchmarks/service/fastapi_mrz.py), the same wrk script against both.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
idkit="$root/.build/release/idkit"
seconds=${BENCH_SECONDS:-10}
port=18080; pyport=18081
cleanup() { kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; }
pids=()
trap cleanup EXIT

"$idkit" serve --listen 127.0.0.1:$port --no-access-log > /dev/null &
pids+=($!)
sleep 0.5
echo "== idkit serve (access log off), POST /v1/mrz, 64 connections, ${seconds}s"
wrk -t1 -c64 -d${seconds}s -s "$here/mrz.lua" http://127.0.0.1:$port/v1/mrz | tail -1
echo "== idkit serve, GET /healthz"
wrk -t1 -c64 -d${seconds}s http://127.0.0.1:$port/healthz | grep Requests/sec
kill "${pids[0]}"; wait "${pids[0]}" 2>/dev/null || true

"$idkit" serve --listen 127.0.0.1:$port > /dev/null 2>/tmp/idkit-serve-bench.log &
pids=($!)
sleep 0.5
echo "== idkit serve (access log on, to a file), POST /v1/mrz"
wrk -t1 -c64 -d${seconds}s -s "$here/mrz.lua" http://127.0.0.1:$port/v1/mrz | tail -1
echo "== idkit serve, POST /v1/aamva (a public payload)"
BODY_FILE="$root/TestVectors/aamva/public/AR-Apple__1.txt" wrk -t1 -c64 -d${seconds}s -s "$here/aamva.lua" http://127.0.0.1:$port/v1/aamva | tail -1
echo "== idkit serve, POST /v1/mrz, NDJSON batches of 1,000 MRZs (MRZs/s = requests/s x 1000)"
BATCH=1000 wrk -t1 -c8 -d${seconds}s -s "$here/batch.lua" http://127.0.0.1:$port/v1/mrz | tail -1
echo "== idkit serve, POST /v1/scan (TestVectors/images/tilt-01-td1.jpg, 8 connections), against the in-process scan time"
BODY_FILE="$root/TestVectors/images/tilt-01-td1.jpg" wrk -t1 -c8 -d${seconds}s -s "$here/scan.lua" http://127.0.0.1:$port/v1/scan | tail -1
kill "${pids[0]}"; wait "${pids[0]}" 2>/dev/null || true
rm -f /tmp/idkit-serve-bench.log
for i in 1 2 3 4 5; do "$idkit" scan --json "$root/TestVectors/images/tilt-01-td1.jpg"; done \
  | python3 -c "import json, sys, os; t = sorted(json.loads(l)['timingsMs']['total'] for l in sys.stdin); n = os.cpu_count(); print(f'in-process scan (idkit scan, median of 5): {t[2]:.1f} ms -> {n} cores / scan time = {1000 * n / t[2]:.1f} requests/s')"

python3 -c "import fastapi, uvicorn, mrz" 2>/dev/null || python3 -m pip install -q fastapi uvicorn mrz
python3 "$here/fastapi_mrz.py" $pyport &
pids=($!)
sleep 2
echo "== FastAPI + uvicorn + PyPI mrz (one worker), POST /v1/mrz"
wrk -t1 -c64 -d${seconds}s -s "$here/mrz.lua" http://127.0.0.1:$pyport/v1/mrz | tail -1
