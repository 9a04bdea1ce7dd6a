-- One admission, booking or peek over one or more buckets of one hash slot, in one round trip
-- (RL-A1..RL-A5, RL-M1, RL-M4, RL-M5, RL-W1, RL-W3, RL-L4, RL-L5, RL-A7, RL-Q1..RL-Q6, RL-V2, RL-V4).
-- Its arguments and replies, by name: src/protocol.ts (admitArgs, decodeAdmitReply).
--
-- keys: the buckets (distinct: the caller merges repeated keys, RL-M2).
-- args: now ('' = server TIME), the call's settings as one text "slack,mode,class,free" (TTL slack ms; mode;
--       class CRITICAL, NORMAL or BULK; the share of each bucket the class leaves free, '' = one share per bucket
--       after the checks, RL-Q6), the checks as one text "definition;cost;definition;cost..." (per bucket its
--       definition as text and its cost, > 0), then the shares when per bucket, then for a booking its budget
--       (ms) and its token.

-- modes: a probe admits now or answers the wait (the default, 1); a peek writes nothing; a booking books a
-- wait within the budget
local MODE_PEEK, MODE_BOOK = 2, 3
-- replies other than admitted now (the clock alone): booked for later, not admitted, never payable
local REPLY_BOOKED, REPLY_WAIT, REPLY_UNPAYABLE = 0, 1, 2
-- why a cost can never be paid
local UNPAYABLE_QUOTA, UNPAYABLE_HORIZON, UNPAYABLE_WINDOW = 1, 2, 3
-- Scratch tables, reused from call to call (the library outlives its calls): each call writes every entry
-- it reads (index i of a plan table before bucket i is planned), so what an earlier call left is never read.
local GOT, FREES, DEFS, COSTS, XS, HOLDS, WINDOWS, CLASSES, LINES, CHECKED = {}, {}, {}, {}, {}, {}, {}, {}, {}, {}

-- A call's settings and its checks, by their texts: a limiter sends the same few of each (one settings text per
-- mode, class and share; one list of checks per kind of request), so each is parsed once (base.lua's memoized).
local MAX_CALLS, MAX_CHECKS = 256, 1024

local call_settings = memoized(function(text)
  local slack, mode, cls, free = string.match(text, '^([^,]*),([^,]*),([^,]*),([^,]*)$')
  return { slack = tonumber(slack), mode = tonumber(mode), cls = tonumber(cls), free = tonumber(free) }
end, MAX_CALLS)

local checks_of = memoized(function(text)
  local defs, costs = {}, {}
  local n = 0
  for def, cost in string.gmatch(text, '([^;]+);([^;]+)') do
    n = n + 1
    defs[n] = define(def)
    costs[n] = tonumber(cost)
  end
  return { n = n, defs = defs, costs = costs }
end, MAX_CHECKS)

function OPERATIONS.admit(keys, args)
  local NOW, CALL, CHECKS = 1, 2, 3
  local now, clock_a, clock_b, admitted_now = read_clock(args[NOW])
  local settings = call_settings(args[CALL])
  local slack, mode, cls, free = settings.slack, settings.mode, settings.cls, settings.free
  local n = #keys
  local frees = FREES
  local checks = checks_of(args[CHECKS])
  if checks.n ~= n then return redis.error_reply('ERR admit: ' .. n .. ' keys, ' .. checks.n .. ' checks') end
  -- after the checks: the shares when per bucket, then a booking's budget and token
  local tail = CHECKS + 1
  if free ~= nil then
    for i = 1, n do frees[i] = free end
  else
    for i = 1, n do frees[i] = number(args[tail + i - 1]) end
    tail = tail + n
  end
  local BUDGET, TOKEN = tail, tail + 1

  local stored
  if n == 1 then
    stored = GOT
    stored[1] = redis.call('GET', keys[1])
  else
    stored = redis.call('MGET', unpack(keys))
  end

  -- the plan (plan.ts): token buckets first (any time from their own send time fits), relative to now (gcra.lua),
  -- their latest send time r put on the clock rounded up, then every window limit moves the common time to its
  -- earliest fitting time from there (on the clock), until none moves it
  local defs, costs, xs, holds, windows, classes = DEFS, COSTS, XS, HOLDS, WINDOWS, CLASSES
  local r = 0
  local any_window = false
  local check_defs, check_costs = checks.defs, checks.costs
  for i = 1, n do
    local d = check_defs[i]
    local cost = check_costs[i]
    defs[i], costs[i] = d, cost
    if d.window then
      windows[i], holds[i] = effective_window(stored[i], d, now)
      CHECKED[i] = nil
      LINES[i] = window_line_of(d.window.per, frees[i], cost)
      any_window = true
    else
      local x, hold, cs = effective(stored[i], d, now)
      cs = settle_classes(cs, x, 0)
      xs[i], holds[i], classes[i] = x, hold, cs
      local line = line_of(d, frees[i], cost)
      local s = class_send_time(x, cs, d, line, cls, cost, 0)
      if not (s <= HORIZON_MS) then
        if d.quota then return { REPLY_UNPAYABLE, i, UNPAYABLE_QUOTA, fmt(line - math.max(0, x)) } end
        return { REPLY_UNPAYABLE, i, UNPAYABLE_HORIZON, '0' }
      end
      if s > r then r = s end
    end
  end
  local send_at = now
  if r > 0 then send_at = add_up(now, r) end
  local moved = any_window
  -- (the common time each window limit was last checked at: checked again at the same time, a window limit
  -- answers the same, so it is not; plan.ts checks it again, to the same effect)
  local checked = CHECKED
  while moved do
    moved = false
    for i = 1, n do
      local d = defs[i]
      if d.window and checked[i] ~= send_at then
        checked[i] = send_at
        local line = LINES[i]
        local s = window_send_time(windows[i], d.window, costs[i], send_at, line)
        if not (s - now <= HORIZON_MS) then
          if costs[i] > line + d.window.eps then return { REPLY_UNPAYABLE, i, UNPAYABLE_WINDOW, '0' } end
          return { REPLY_UNPAYABLE, i, UNPAYABLE_HORIZON, '0' }
        end
        if s > send_at then
          send_at = s
          moved = true
        end
      end
    end
  end

  local wait = send_at - now
  if wait > 0 and (mode ~= MODE_BOOK or wait > number(args[BUDGET])) then return { REPLY_WAIT, fmt(wait), clock_a, clock_b } end
  if mode == MODE_PEEK then return admitted_now end

  -- a booking for later tags what it writes with its token and answers what it replaced
  local token = ''
  local out = nil
  if wait > 0 then
    token = ';' .. args[TOKEN]
    out = { REPLY_BOOKED, fmt(send_at), clock_a, clock_b }
  end
  -- token buckets charged as of the send time relative to now (wait), window limits on the clock
  for i = 1, n do
    local d = defs[i]
    local value
    if d.window then
      value = store(keys[i], d, 0, holds[i], now, slack, token, window_charge(windows[i], d.window, costs[i], send_at, now), nil)
    elseif d.quota then
      value = store(keys[i], d, charge_at(xs[i], d, costs[i], wait), holds[i], now, slack, token)
    else
      local x2, cs = class_charge(xs[i], classes[i], d, cls, costs[i], wait, 0)
      value = store(keys[i], d, x2, holds[i], now, slack, token, nil, cs)
    end
    if out ~= nil then
      out[#out + 1] = value
      out[#out + 1] = stored[i] or ''
    end
  end
  if out ~= nil then return out end
  return admitted_now
end
