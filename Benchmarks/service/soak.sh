#!/usr/bin/env bash
# `make soak-service` (issue 15): idkit serve at full load for SOAK_SECONDS (default 600) with wrk
# (64 connections, keep-alive; /v1/mrz, and /v1/aamva on a second wrk), its resident memory sampled
# every 30 s. Passes when RSS at the end is within 5% of RSS after the first minute and wrk saw no
# error but deliberate 503s.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
seconds=${SOAK_SECONDS:-600}
port=18088
"$root/.build/release/idkit" serve --listen 127.0.0.1:$port --no-access-log > /dev/null 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true' EXIT
sleep 0.5
rss() { awk '/VmRSS/ {print $2}' /proc/$pid/status; }
wrk -t1 -c48 -d${seconds}s -s "$here/mrz.lua" http://127.0.0.1:$port/v1/mrz > /tmp/soak-mrz.txt &
w1=$!
BODY_FILE="$root/TestVectors/aamva/public/AR-Apple__1.txt" wrk -t1 -c16 -d${seconds}s -s "$here/aamva.lua" http://127.0.0.1:$port/v1/aamva > /tmp/soak-aamva.txt &
w2=$!
start=$(rss); echo "soak: RSS at start ${start} kB"
sleep 60; base=$(rss); echo "soak: RSS after 1 min ${base} kB"
elapsed=60
while [ $elapsed -lt $seconds ]; do sleep 30; elapsed=$((elapsed + 30)); echo "soak: ${elapsed}s RSS $(rss) kB"; done
wait $w1 $w2
end=$(rss)
tail -1 /tmp/soak-mrz.txt; tail -1 /tmp/soak-aamva.txt
growth=$(awk -v a=$base -v b=$end 'BEGIN {printf "%.1f", 100 * (b - a) / a}')
echo "soak: RSS after 1 min ${base} kB, at the end ${end} kB: growth ${growth}%"
kill -TERM $pid; wait $pid
awk -v g=$growth 'BEGIN {exit !(g <= 5)}' && echo "soak: passed (growth <= 5%)"
