-- wrk script for bench/downloads.py: POST a download request per line of a file
-- "LOGO_ID<TAB>TOKEN" (an empty token: anonymous), counting answers by status.
-- Usage: wrk -t2 -c16 -d20s -s bench/downloads.lua http://127.0.0.1:PORT -- FILE 2

local threads = {}
local thread_count = 0

function setup(thread)
  thread:set("thread_index", thread_count)
  thread_count = thread_count + 1
  table.insert(threads, thread)
end

function init(args)
  local nthreads = tonumber(args[2])
  lines = {}
  local index = 0
  for line in io.lines(args[1]) do
    if line ~= "" then
      if index % nthreads == thread_index then
        lines[#lines + 1] = line
      end
      index = index + 1
    end
  end
  sent = 0
  ok = 0
  limited = 0
  other = 0
end

function request()
  local line = lines[(sent % #lines) + 1]
  sent = sent + 1
  local logo, token = line:match("^([^\t]+)\t?(.*)$")
  local headers = {["Content-Type"] = "application/json"}
  if token ~= "" then
    headers["Authorization"] = "Bearer " .. token
  end
  return wrk.format("POST", "/v1/public/logos/" .. logo .. "/download", headers, '{"format":"svg"}')
end

function response(status, headers, body)
  if status == 200 then
    ok = ok + 1
  elseif status == 429 then
    limited = limited + 1
  else
    other = other + 1
  end
end

function done(summary, latency, requests)
  local totals = {ok = 0, limited = 0, other = 0}
  for _, thread in ipairs(threads) do
    totals.ok = totals.ok + thread:get("ok")
    totals.limited = totals.limited + thread:get("limited")
    totals.other = totals.other + thread:get("other")
  end
  io.write(string.format(
    'BENCH_JSON {"requests": %d, "duration_us": %d, "ok": %d, "limited": %d, "other": %d, '
      .. '"socket_errors": %d, "latency_us": {"p50": %.1f, "p95": %.1f, "p99": %.1f}}\n',
    summary.requests, summary.duration, totals.ok, totals.limited, totals.other,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    latency:percentile(50), latency:percentile(95), latency:percentile(99)
  ))
end
