-- wrk script for bench/search.py: walk a file of request paths, one per line.
-- Usage: wrk -t2 -c8 -d20s -s bench/paths.lua http://127.0.0.1:PORT -- PATHS_FILE 2
-- (the last argument is the number of wrk threads, -t).
-- Thread k of n sends lines k, k+n, k+2n... so no path is sent twice until the
-- file runs out; then a thread starts over and `wrapped` reports it.
-- At the end one line "BENCH_JSON {...}" carries the figures (latencies in µs).

local threads = {}
local thread_count = 0

function setup(thread)
  thread:set("thread_index", thread_count)
  thread_count = thread_count + 1
  table.insert(threads, thread)
end

function init(args)
  local nthreads = tonumber(args[2])
  local lines = {}
  for line in io.lines(args[1]) do
    if line ~= "" then
      lines[#lines + 1] = line
    end
  end
  if #lines == 0 then
    error("no paths in " .. args[1])
  end
  paths = {}
  for index, line in ipairs(lines) do
    if (index - 1) % nthreads == thread_index then
      paths[#paths + 1] = line
    end
  end
  if #paths == 0 then
    paths = lines -- fewer paths than threads: every thread walks them all
  end
  sent = 0
  available = #paths
end

function request()
  local path = paths[(sent % #paths) + 1]
  sent = sent + 1
  return wrk.format("GET", path)
end

function done(summary, latency, requests)
  local sent_total, distinct, wrapped = 0, 0, false
  for _, thread in ipairs(threads) do
    local thread_sent = thread:get("sent")
    local thread_available = thread:get("available")
    sent_total = sent_total + thread_sent
    distinct = distinct + math.min(thread_sent, thread_available)
    if thread_sent > thread_available then
      wrapped = true
    end
  end
  local errors = summary.errors
  io.write(string.format(
    'BENCH_JSON {"requests": %d, "duration_us": %d, "bytes": %d, '
      .. '"errors": {"connect": %d, "read": %d, "write": %d, "status": %d, "timeout": %d}, '
      .. '"latency_us": {"mean": %.1f, "p50": %.1f, "p90": %.1f, "p95": %.1f, '
      .. '"p99": %.1f, "max": %.1f}, '
      .. '"sent": %d, "distinct_paths": %d, "wrapped": %s}\n',
    summary.requests, summary.duration, summary.bytes,
    errors.connect, errors.read, errors.write, errors.status, errors.timeout,
    latency.mean, latency:percentile(50), latency:percentile(90), latency:percentile(95),
    latency:percentile(99), latency.max,
    sent_total, distinct, tostring(wrapped)
  ))
end
