-- wrk script of the load benchmarks (bench/wrk.ts): replays prepared HTTP requests in a cycle,
-- counts answers by status, and writes a JSON report when the run ends.
-- usage: wrk -t1 -c<n> -d<s>s -s bench/wrk.lua <base url> -- <requests file> <report file> [statuses]
--
-- With `statuses`, every answer's status is counted here (wrk then hands each answer's headers and
-- body to Lua, which costs it a tenth of its rate); without, wrk's own count of answers >= 400 is
-- reported. The benchmarks count statuses of urnbase's answers, not of the bare route's: a
-- cheaper generator on the baseline's side can only lower urnbase's ratio.
--
-- The requests file holds raw HTTP/1.1 requests, each preceded by a line with its byte length.
-- They are read once per thread in init(), so request() only returns a string it already has:
-- the per-request work of wrk stays that of its static mode, and the bare route's rate shows it
-- (wrk.ts compares it with wrk's static mode).

local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

function init(args)
  local file = assert(io.open(args[1], "rb"))
  local data = file:read("*a")
  file:close()
  requests = {}
  local at = 1
  while at <= #data do
    local newline = string.find(data, "\n", at, true)
    local length = tonumber(string.sub(data, at, newline - 1))
    table.insert(requests, string.sub(data, newline + 1, newline + length))
    at = newline + length + 1
  end
  report = args[2]
  if args[3] ~= "statuses" then response = nil end
  counting = args[3] == "statuses"
  nextRequest = 0
  answers2xx = 0
  answersOther = 0
  -- the first few statuses that were not 2xx, for the report
  otherStatuses = ""
end

function request()
  nextRequest = nextRequest % #requests + 1
  return requests[nextRequest]
end

function response(status, headers, body)
  if status >= 200 and status < 300 then
    answers2xx = answers2xx + 1
  else
    answersOther = answersOther + 1
    if answersOther <= 3 then
      otherStatuses = otherStatuses .. status .. " " .. string.sub(body or "", 1, 120):gsub("[\"\\%c]", " ") .. "; "
    end
  end
end

function done(summary, latency, requests)
  local ok, other, statuses, path, counted = 0, 0, "", nil, false
  for _, thread in ipairs(threads) do
    ok = ok + thread:get("answers2xx")
    other = other + thread:get("answersOther")
    statuses = statuses .. thread:get("otherStatuses")
    path = thread:get("report")
    counted = thread:get("counting")
  end
  local e = summary.errors
  if not counted then
    ok = summary.requests - e.status
    other = e.status
    statuses = "(statuses not counted: wrk's count of answers >= 400)"
  end
  local out = assert(io.open(path, "w"))
  out:write(string.format(
    '{"durationUs":%d,"requests":%d,"ok":%d,"other":%d,"otherStatuses":"%s",' ..
    '"errors":{"connect":%d,"read":%d,"write":%d,"timeout":%d},' ..
    '"latencyUs":{"p50":%d,"p90":%d,"p95":%d,"p99":%d,"max":%d}}',
    summary.duration, summary.requests, ok, other, statuses,
    e.connect, e.read, e.write, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(95), latency:percentile(99), latency.max))
  out:close()
end
