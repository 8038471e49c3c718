-- wrk script for POST /v1/mrz with a batch of BATCH MRZs (text/plain records), answered as NDJSON.
local n = tonumber(os.getenv("BATCH") or "1000")
local one = "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nL898902C36UTO7408122F1204159ZE184226B<<<<<10\n\n"
wrk.method = "POST"
wrk.headers["Content-Type"] = "text/plain"
wrk.body = string.rep(one, n)
done = function(summary, latency, requests)
  local rps = summary.requests / (summary.duration / 1e6)
  io.write(string.format("requests/s %.0f  MRZs/s %.0f  p50 %.2f ms  p99 %.2f ms  non-200 %d\n",
    rps, rps * n, latency:percentile(50) / 1000, latency:percentile(99) / 1000, summary.errors.status))
end
