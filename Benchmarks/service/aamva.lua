-- wrk script for POST /v1/aamva: the payload file named by BODY_FILE, as a scanner delivers it.
local f = assert(io.open(os.getenv("BODY_FILE"), "rb"))
wrk.method = "POST"
wrk.headers["Content-Type"] = "application/octet-stream"
wrk.body = f:read("*a")
f:close()
done = function(summary, latency, requests)
  io.write(string.format("requests/s %.0f  p50 %.2f ms  p99 %.2f ms  non-200 %d\n",
    summary.requests / (summary.duration / 1e6), latency:percentile(50) / 1000, latency:percentile(99) / 1000, summary.errors.status))
end
