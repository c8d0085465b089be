-- The traffic of bench/load.py: wrk's connections sending the realistic mix to two
-- app processes. Run by bench/load.py, not meant to be run alone.
--
-- bench/load.py writes the plan into the folder named by BENCH_LOAD_PLAN: main.lua
-- (the two servers) and thread-<n>.lua for each of wrk's threads (its share of the
-- request paths, tokens, addresses and palettes). Each thread holds one connection,
-- so its requests and answers alternate, and it pins that connection to one of the
-- two servers in turn, as a load balancer would spread them.
--
-- The mix, in request weights: 35 company search, 35 logo search (the distinct
-- paths of bench/mix.py, none sent twice), 8 company detail, 7 logo detail,
-- 10 download, 5 palettes (list 40, create 35, change 15, delete 10, with
-- write:palettes tokens). A fifth of the reads carry a token; the others pass a
-- client address in X-Forwarded-For, which the servers trust from one proxy.
--
-- Per answer, a thread records the endpoint, the status, the error code of a 4xx
-- or 5xx body, the latency and when the answer completed; at the end, done() writes
-- every thread's records to results.tsv in the plan folder. The latency runs from
-- the thread's previous answer to this one: the servers close every connection,
-- so it includes opening a new one. Paced (bench/soak.py), it runs from when the
-- request was made, after the wait.

local ffi = require("ffi")
ffi.cdef([[
typedef struct { long tv_sec; long tv_nsec; } load_timespec;
int clock_gettime(int clock_id, load_timespec *tp);
]])
local CLOCK_MONOTONIC = 1 -- the clock of Python's time.monotonic()
local clock = ffi.new("load_timespec")

local function now_us()
  ffi.C.clock_gettime(CLOCK_MONOTONIC, clock)
  return tonumber(clock.tv_sec) * 1000000 + math.floor(tonumber(clock.tv_nsec) / 1000)
end

local folder = assert(os.getenv("BENCH_LOAD_PLAN"), "BENCH_LOAD_PLAN is not set")

-- wrk's main state ------------------------------------------------------------------

local threads = {}
local servers

function setup(thread)
  servers = servers or dofile(folder .. "/main.lua").hosts
  local index = #threads
  local server = servers[index % #servers + 1]
  thread.addr = wrk.lookup(server.address, server.port)[1]
  thread:set("index", index)
  table.insert(threads, thread)
end

function done(summary)
  local out = assert(io.open(folder .. "/results.tsv", "w"))
  for _, thread in ipairs(threads) do
    for _, record in ipairs(thread:get("records")) do
      out:write("answer\t", record, "\n")
    end
    for pool, count in pairs(thread:get("exhausted")) do
      out:write("exhausted\t", pool, "\t", count, "\n")
    end
  end
  local errors = summary.errors
  for _, kind in ipairs({ "connect", "read", "write", "timeout" }) do
    out:write("socket_error\t", kind, "\t", errors[kind], "\n")
  end
  out:close()
end

-- each thread's state ---------------------------------------------------------------

local plan
local pending -- what the request in flight was: its endpoint and, for palettes, more
local last -- when the previous answer completed
records = {} -- "endpoint\tstatus\terror\tlatency_us\tcompleted_us", read by done()
exhausted = { company = 0, logo = 0 }
local next_search = { company = 1, logo = 1 }

-- bench/soak.py paces each thread to its share of a rate (plan.interval_us): request n
-- goes no sooner than n intervals after the first; a thread more than an interval
-- behind starts counting again rather than sending a burst.
local next_due

local function paced_delay()
  local now = now_us()
  next_due = math.max(next_due + plan.interval_us, now - plan.interval_us)
  return math.max(0, math.floor((next_due - now) / 1000))
end

function init(_args)
  plan = dofile(folder .. "/thread-" .. index .. ".lua")
  math.randomseed(plan.seed)
  last = now_us()
  if plan.interval_us then
    -- Each thread at its own phase: started together, they would send in bursts.
    next_due = last + math.random(0, plan.interval_us)
    delay = paced_delay
  end
end

local function pick(list)
  return list[math.random(#list)]
end

local function reader_headers()
  if math.random() < 0.2 then
    return { Accept = "application/json", Authorization = "Bearer " .. pick(plan.read_tokens) }
  end
  return { Accept = "application/json", ["X-Forwarded-For"] = pick(plan.addresses) }
end

-- Searches are sent once each; when a thread's share runs dry it repeats it, and the
-- report says so.
local function search_path(pool)
  local paths = plan[pool .. "_searches"]
  local position = next_search[pool]
  if position <= #paths then
    next_search[pool] = position + 1
    return paths[position]
  end
  exhausted[pool] = exhausted[pool] + 1
  return pick(paths)
end

-- `after` holds what response() needs beyond the endpoint: a palette's list of ids.
local function send(endpoint, method, path, headers, body, after)
  pending = after or {}
  pending.endpoint = endpoint
  pending.sent = now_us()
  return wrk.format(method, path, headers, body)
end

local function download()
  -- A third each: anonymous addresses (3 per 24 h), FREE (5) and PRO (unlimited).
  local headers = { Accept = "application/json", ["Content-Type"] = "application/json" }
  local who = math.random()
  if who < 1 / 3 then
    headers["X-Forwarded-For"] = pick(plan.download_addresses)
  elseif who < 2 / 3 then
    headers.Authorization = "Bearer " .. pick(plan.download_free_tokens)
  else
    headers.Authorization = "Bearer " .. pick(plan.pro_tokens)
  end
  local format = math.random() < 0.5 and "svg" or "SVG"
  return send(
    "POST /logos/{id}/download",
    "POST",
    "/v1/public/logos/" .. pick(plan.download_logos) .. "/download",
    headers,
    '{"format": "' .. format .. '"}'
  )
end

-- Each palette id belongs to one thread, so no two threads change or delete the same.
local function palettes()
  local account = pick(plan.palette_accounts)
  local owned = plan.palettes[account]
  local headers = {
    Accept = "application/json",
    ["Content-Type"] = "application/json",
    Authorization = "Bearer " .. account,
  }
  local roll = math.random() * 100
  if roll < 40 then
    local roll_page = math.random()
    local page = roll_page < 0.7 and 1 or (roll_page < 0.9 and 2 or 3)
    return send("GET /palettes", "GET", "/v1/public/palettes?page=" .. page, headers)
  end
  if roll >= 75 and #owned > 0 then
    local palette = table.remove(owned, math.random(#owned))
    if roll < 90 then
      return send(
        "PATCH /palettes/{id}",
        "PATCH",
        "/v1/public/palettes/" .. palette,
        headers,
        string.format(
          '{"name": "Changed %d", "isPublic": %s}',
          math.random(0, 999999),
          math.random() < 0.5 and "true" or "false"
        ),
        -- Back in the list once answered.
        { palette = palette, owned = owned }
      )
    end
    return send("DELETE /palettes/{id}", "DELETE", "/v1/public/palettes/" .. palette, headers)
  end
  local colors = {}
  for n = 1, math.random(2, 6) do
    colors[n] = string.format('"#%06X"', math.random(0, 16 ^ 6 - 1))
  end
  return send(
    "POST /palettes",
    "POST",
    "/v1/public/palettes",
    headers,
    string.format(
      '{"type": "PALETTE", "name": "Load %d", "colors": [%s]}',
      math.random(0, 999999),
      table.concat(colors, ", ")
    ),
    { owned = owned }
  )
end

function request()
  local roll = math.random() * 100
  if roll < 35 then
    return send("GET /companies?q", "GET", search_path("company"), reader_headers())
  elseif roll < 70 then
    return send("GET /logos?q", "GET", search_path("logo"), reader_headers())
  elseif roll < 78 then
    local path = "/v1/public/companies/" .. pick(plan.company_slugs)
    return send("GET /companies/{slug}", "GET", path, reader_headers())
  elseif roll < 85 then
    local path = "/v1/public/logos/" .. pick(plan.logo_refs)
    return send("GET /logos/{id}", "GET", path, reader_headers())
  elseif roll < 95 then
    return download()
  end
  return palettes()
end

function response(status, headers, body)
  local completed = now_us()
  local code = ""
  if status >= 400 then
    code = body:match('"error"%s*:%s*"([^"]*)"') or ""
  end
  if pending.palette then
    table.insert(pending.owned, pending.palette)
  elseif pending.owned and status == 201 then
    -- The palette's own id comes first in {"data": {"id": ...}}.
    table.insert(pending.owned, body:match('"id"%s*:%s*"([^"]+)"'))
  end
  records[#records + 1] = table.concat(
    -- Retry-After of a 5xx: bench/chaos.py checks that every one carries it.
    {
      pending.endpoint,
      status,
      code,
      -- Paced, a thread waits between an answer and its next request: from the request.
      completed - (plan.interval_us and pending.sent or last),
      completed,
      status >= 500 and (headers["Retry-After"] or "-") or "",
    },
    "\t"
  )
  last = completed
end
