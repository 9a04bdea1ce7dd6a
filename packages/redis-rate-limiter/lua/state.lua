-- The bucket arithmetic shared by every script: the same expressions, in the same order, as the
-- TypeScript core (@core/rate-limit-kit, src/gcra.ts; the contract package's MODEL.md states them).
-- A differential test (test/differential.test.ts) runs random operation sequences through both and
-- compares every decision and every stored state.
--
-- Stored value of a defined bucket: "capacity,refillPerSec,x[,hold]" where x is the theoretical arrival
-- time tat (ms, script time) of a refilling bucket or the amount used of a fixed quota (refill 0), and
-- hold the end of a penalty in force (absent when none). The definition is written as the client sent
-- it (JavaScript's shortest round-trip text), so an equal definition compares equal as text. A value
-- written by a booking for later ends with ";" and the booking's token: no other write stores one, so a
-- cancel that finds exactly the booking's value knows that nothing wrote since (RL-W5).
-- A bucket never defined that has a hold or recorded debt: "p,debt,hold" (hold empty when none).
-- Absent means full.
--
-- Script time: the caller's injected clock, or milliseconds since EPOCH_S from the server's TIME (small
-- numbers keep doubles exact to well under a microsecond).

local EPOCH_S = 1767225600 -- 2026-01-01T00:00:00Z
local HORIZON_MS = 1e15
local MAX_AMOUNT = 1e300
local ULP = 2.220446049250313e-16
local NO_HOLD = -math.huge

-- now in script time, and the clock as the caller gets it back: TIME's two strings, or the injected value
local function read_clock(arg)
  if arg ~= '' then return tonumber(arg), arg, '' end
  local t = redis.call('TIME')
  return (tonumber(t[1]) - EPOCH_S) * 1000 + tonumber(t[2]) / 1000, t[1], t[2]
end

local function fmt(v)
  return string.format('%.17g', v)
end

-- base + inc, nudged up when the float sum fell short of inc: a charge is never smaller than its cost
local function add_up(base, inc)
  local r = base + inc
  if r - base < inc then r = r + math.abs(r) * ULP end
  return r
end

-- a definition from its two numbers as text
local function define(capacity_text, refill_text)
  local capacity = tonumber(capacity_text)
  local refill = tonumber(refill_text)
  local d = { capacity = capacity, refill = refill, text = capacity_text .. ',' .. refill_text }
  if refill == 0 then
    d.quota = true
    d.ms_per_token = math.huge
    d.tau = math.huge
    d.eps = 1e-9 * capacity
  else
    d.quota = false
    d.ms_per_token = 1000 / refill
    d.tau = capacity * d.ms_per_token
    d.eps = 1e-9 * d.tau
  end
  return d
end

local function fresh(d, now)
  if d.quota then return 0 end
  return now
end

local function borrowed_at(x, d, now)
  if d.quota then
    if x > 0 then return x end
    return 0
  end
  if x <= now then return 0 end
  return (x - now) / d.ms_per_token
end

-- the earliest time the bucket can pay cost (math.huge for a quota that cannot)
local function send_time(x, d, cost, now)
  if d.quota then
    if x + cost <= d.capacity + d.eps then return now end
    return math.huge
  end
  local start = x
  if start < now then start = now end
  local s = start + cost * d.ms_per_token - d.tau
  if s - now <= d.eps then return now end
  return s
end

local function charge_at(x, d, cost, s)
  if d.quota then return x + cost end
  local span = cost * d.ms_per_token
  if span > d.tau then span = d.tau end
  if x < s then x = s end
  return add_up(x, span)
end

local function record_cost(x, d, cost, now)
  if d.quota then return math.min(x + cost, MAX_AMOUNT) end
  if x < now then x = now end
  return math.min(add_up(x, cost * d.ms_per_token), now + HORIZON_MS)
end

local function sync_borrowed(x, d, min_borrowed, now)
  if d.quota then return math.max(x, math.min(min_borrowed, MAX_AMOUNT)) end
  return math.max(x, math.min(add_up(now, min_borrowed * d.ms_per_token), now + HORIZON_MS))
end

local function clamp_hold(until_ms, now)
  return math.min(until_ms, now + HORIZON_MS)
end

local function penalize_until(x, d, until_ms, now)
  if d.quota then return math.max(x, d.capacity) end
  return math.max(x, add_up(clamp_hold(until_ms, now), d.tau))
end

-- a new definition keeps the amount borrowed and never lifts a hold
local function redefine(x, hold, from, to, now)
  local b = borrowed_at(x, from, now)
  local y
  if b <= 0 then
    y = fresh(to, now)
  elseif to.quota then
    y = math.min(b, MAX_AMOUNT)
  else
    y = math.min(add_up(now, b * to.ms_per_token), now + HORIZON_MS)
  end
  if hold > now then
    if to.quota then y = math.max(y, to.capacity) else y = math.max(y, add_up(hold, to.tau)) end
  end
  return y
end

-- the first definition of a bucket that had only a hold and/or recorded debt
local function fold_pending(debt, hold, d, now)
  if d.quota then
    local y = 0
    if hold > NO_HOLD then y = d.capacity end
    return math.min(y + debt, MAX_AMOUNT)
  end
  local y = now
  if hold > NO_HOLD then
    local empty = add_up(hold, d.tau)
    if empty > y then y = empty end
  end
  if debt > 0 then y = math.min(add_up(y, debt * d.ms_per_token), now + HORIZON_MS) end
  return y
end

local function number_or_no_hold(text)
  if text == nil or text == '' then return NO_HOLD end
  return tonumber(text)
end

-- a stored value: { pending = true, debt, hold } or { capacity_text, refill_text, x, hold }; nil when absent
local function parse(raw)
  if not raw then return nil end
  local token = string.find(raw, ';', 1, true)
  if token then raw = string.sub(raw, 1, token - 1) end
  local a, b, c, h = string.match(raw, '^([^,]*),([^,]*),([^,]*),?([^,]*)$')
  if a == nil then return nil end
  if a == 'p' then return { pending = true, debt = tonumber(b), hold = number_or_no_hold(c) } end
  return { pending = false, capacity_text = a, refill_text = b, text = a .. ',' .. b, x = tonumber(c), hold = number_or_no_hold(h) }
end

-- a defined bucket that is full and not held behaves exactly like an absent one (it may expire any time)
local function live(st, now)
  if st == nil or st.pending then return st end
  local full
  if tonumber(st.refill_text) == 0 then full = st.x <= 0 else full = st.x <= now end
  if full and not (st.hold > now) then return nil end
  return st
end

-- the bucket's x and hold under definition d now: converted (keeping the hold), or folded from pending
local function effective(raw, d, now)
  local st = parse(raw)
  if st == nil then return fresh(d, now), NO_HOLD end
  if st.pending then return fold_pending(st.debt, st.hold, d, now), st.hold end
  if st.text == d.text then return st.x, st.hold end
  return redefine(st.x, st.hold, define(st.capacity_text, st.refill_text), d, now), st.hold
end

-- writes a defined bucket (or deletes one that is full and not held); returns the stored string
local function store(key, d, x, hold, now, slack, token)
  local full
  if d.quota then full = x <= 0 else full = x <= now end
  if full and not (hold > now) and token == '' then
    redis.call('DEL', key)
    return ''
  end
  local value = d.text .. ',' .. fmt(x)
  if hold > now then value = value .. ',' .. fmt(hold) end
  value = value .. token
  if d.quota then
    redis.call('SET', key, value)
  else
    local ttl = x - now
    if hold - now > ttl then ttl = hold - now end
    if ttl < 0 then ttl = 0 end
    redis.call('SET', key, value, 'PX', math.ceil(ttl + slack))
  end
  return value
end

-- writes a pending bucket: kept while its debt matters and at least hold_ttl after its hold ends
local function store_pending(key, debt, hold, now, debt_ttl, hold_ttl)
  local ttl = 0
  if debt > 0 then ttl = debt_ttl end
  if hold > NO_HOLD and hold - now + hold_ttl > ttl then ttl = hold - now + hold_ttl end
  if ttl <= 0 then
    redis.call('DEL', key)
    return ''
  end
  local h = ''
  if hold > NO_HOLD then h = fmt(hold) end
  local value = 'p,' .. fmt(debt) .. ',' .. h
  redis.call('SET', key, value, 'PX', math.ceil(ttl))
  return value
end
