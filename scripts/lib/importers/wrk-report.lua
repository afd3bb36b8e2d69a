-- wrk -s scripts/lib/importers/wrk-report.lua … prints one line "WRK_JSON {…}" after the usual report.
-- scripts/import --tool wrk reads it for exact counts, min latency and more percentiles (99.9, 99.99).
-- With WRK_WINDOW_S=N in the environment (lab/bench/lib.sh, protocol version 5) it also prints
-- "WRK_WINDOWS {…}": the responses completed in each N-second window of the wall clock, summed over wrk's threads,
-- so that a stretch in which the host ran slow shows in the throughput too. Counting needs wrk's response hook,
-- which makes wrk hand each response to Lua; without the variable the hook is not defined and costs nothing.
local function num(x)
  if x ~= x or x == math.huge or x == -math.huge then return "null" end
  return string.format("%.17g", x)
end

local window_s = tonumber(os.getenv("WRK_WINDOW_S") or "")
local threads = {}

if window_s and window_s > 0 then
  setup = function(thread) threads[#threads + 1] = thread end
  -- Per thread (each has its own Lua state): completed responses by window number since the epoch.
  counts = {}
  response = function(status, headers, body)
    local w = math.floor(os.time() / window_s)
    counts[w] = (counts[w] or 0) + 1
  end
end

local function windows_json()
  local sum, first, last = {}, nil, nil
  for _, t in ipairs(threads) do
    for w, n in pairs(t:get("counts") or {}) do
      sum[w] = (sum[w] or 0) + n
      if not first or w < first then first = w end
      if not last or w > last then last = w end
    end
  end
  local out = {}
  if first then for w = first, last do out[#out + 1] = tostring(sum[w] or 0) end end
  -- The first and last windows are partial: wrk starts and stops between window boundaries.
  return string.format('WRK_WINDOWS {"window_s":%s,"first_epoch_s":%s,"counts":[%s]}\n',
    num(window_s), first and num(first * window_s) or "null", table.concat(out, ","))
end

done = function(summary, latency, requests)
  local ps = {}
  for _, p in ipairs({ 50, 75, 90, 99, 99.9, 99.99 }) do
    ps[#ps + 1] = string.format('"%s":%s', tostring(p), num(latency:percentile(p)))
  end
  local e = summary.errors
  io.write(string.format(
    'WRK_JSON {"duration_us":%s,"requests":%s,"bytes":%s,"errors":{"connect":%d,"read":%d,"write":%d,"status":%d,"timeout":%d},' ..
    '"latency_us":{"min":%s,"max":%s,"mean":%s,"stdev":%s,"percentiles":{%s}}}\n',
    num(summary.duration), num(summary.requests), num(summary.bytes),
    e.connect, e.read, e.write, e.status, e.timeout,
    num(latency.min), num(latency.max), num(latency.mean), num(latency.stdev), table.concat(ps, ",")))
  if window_s and window_s > 0 then io.write(windows_json()) end
end
