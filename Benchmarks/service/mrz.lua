-- wrk script for POST /v1/mrz (issue 15): one TD3 MRZ per request, text/plain, keep-alive.
-- Also used against the FastAPI comparison service (Benchmarks/service/fastapi_mrz.py).
wrk.method = "POST"
wrk.headers["Content-Type"] = "text/plain"
wrk.body = "P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<\nL898902C36UTO7408122F1204159ZE184226B<<<<<10\n"

-- Any answer but 200 counts as an error in the summary.
local errors = 0
response = function(status, headers, body)
  if status ~= 200 then errors = errors + 1 end
end
done = function(summary, latency, requests)
  io.write(string.format("requests/s %.0f  p50 %.2f ms  p99 %.2f ms  non-200 %d  socket-errors %d\n",
    summary.requests / (summary.duration / 1e6), latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    summary.errors.status, summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
