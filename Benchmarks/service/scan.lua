-- wrk script for POST /v1/scan: the image named by BODY_FILE (a generated document photo).
local f = assert(io.open(os.getenv("BODY_FILE"), "rb"))
wrk.method = "POST"
wrk.headers["Content-Type"] = "image/jpeg"
wrk.body = f:read("*a")
f:close()
done = function(summary, latency, requests)
  io.write(string.format("requests/s %.1f  p50 %.1f ms  p99 %.1f ms  non-200 %d\n",
    summary.requests / (summary.duration / 1e6), latency:percentile(50) / 1000, latency:percentile(99) / 1000, summary.errors.status))
end
