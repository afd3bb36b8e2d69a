-- wrk -s scripts/lib/importers/wrk-report.lua … prints one line "WRK_JSON {…}" after the usual report.
-- scripts/import --tool wrk reads it for exact counts, min latency and more percentiles (99.9, 99.99).
local function num(x)
  if x ~= x or x == math.huge or x == -math.huge then return "null" end
  return string.format("%.17g", x)
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
end
