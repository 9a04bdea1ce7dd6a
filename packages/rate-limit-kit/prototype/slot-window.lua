-- Prototype of the slot ledger's admission in Redis (MODEL.md, "Window limits: the slot ledger"): one script
-- call admits, probes or books a cost on one or more window limits of one hash slot. Measured by lua-bench.mjs
-- against a bare GCRA script; not the shipped script.
--
-- Stored value: "sum,others,others_slot,last_slot,last_amount|s1:a1,s2:a2,..." (the slots that hold something, in
-- order, and their sum; the last one in the head, so that adding to it or after it never scans the list).
-- The fast path reads the head and the sum and never splits the list: a call that sends now behind everything
-- touches the first entries (to forget what left every run) and the last one (to add to it).
-- KEYS: the window limits. ARGV: now ('' = TIME), mode (1 probe, 3 book), budget, K, then per key:
-- perWindow, windowMs, jitterMs, cost.

local MODE_BOOK = 3
local NONE = -1e300

local function read_clock(arg)
  if arg ~= '' then return tonumber(arg) end
  local t = redis.call('TIME')
  return (tonumber(t[1]) - 1767225600) * 1000 + tonumber(t[2]) / 1000
end

local now = read_clock(ARGV[1])
local mode = tonumber(ARGV[2])
local budget = tonumber(ARGV[3])
local K = tonumber(ARGV[4])
local n = #KEYS
local floor = math.floor

local stored
if n == 1 then stored = { redis.call('GET', KEYS[1]) } else stored = redis.call('MGET', unpack(KEYS)) end

-- per ledger: geometry, sum, others, the entry list (text) and, when split, its slots and amounts
local L = {}
for i = 1, n do
  local p = 5 + (i - 1) * 4
  local per, win, jit, cost = tonumber(ARGV[p]), tonumber(ARGV[p + 1]), tonumber(ARGV[p + 2]), tonumber(ARGV[p + 3])
  local g = win / K
  local l = { per = per, g = g, M = math.ceil((win + jit) / g - 1e-9) + 1, cost = cost, eps = 1e-9 * per, sum = 0, others = 0, oslot = NONE, list = '', last = NONE, lasta = 0 }
  local raw = stored[i]
  if raw then
    local sum, others, oslot, last, lasta, at = string.match(raw, '^([^,]*),([^,]*),([^,]*),([^,]*),([^|]*)|()')
    l.sum, l.others, l.oslot, l.last, l.lasta, l.list = tonumber(sum), tonumber(others), tonumber(oslot), tonumber(last), tonumber(lasta), string.sub(raw, at)
  end
  L[i] = l
end

-- forgets the entries at or before slot `oldest` (first entries of the list); returns nothing
local function prune(l, oldest)
  while l.list ~= '' do
    local s, a, nxt = string.match(l.list, '^([^:]*):([^,]*),?()')
    if tonumber(s) > oldest then return end
    l.sum = l.sum - tonumber(a)
    l.list = string.sub(l.list, nxt)
  end
  if l.last ~= NONE and l.last <= oldest then
    l.sum, l.last, l.lasta = l.sum - l.lasta, NONE, 0
  end
end

local function last_slot(l)
  return l.last
end

-- splits the list into slots and amounts (the general path only)
local function split(l)
  local slots, amounts = {}, {}
  for s, a in string.gmatch(l.list, '([^:,]+):([^,]+)') do
    slots[#slots + 1], amounts[#amounts + 1] = tonumber(s), tonumber(a)
  end
  if l.last ~= NONE then slots[#slots + 1], amounts[#amounts + 1] = l.last, l.lasta end
  return slots, amounts
end

-- the largest run of M slots containing slot j (general path), others included: a run [i, i + M - 1] is largest
-- right where an entry enters it, so only i = j - M + 1 and the entry slots - M + 1 in range are tried
local function worst_run(l, slots, amounts, j)
  local M = l.M
  local lo, hi = j - M + 1, j + M - 1
  local near_s, near_a = {}, {}
  for k = 1, #slots do
    if slots[k] >= lo and slots[k] <= hi then near_s[#near_s + 1], near_a[#near_a + 1] = slots[k], amounts[k] end
  end
  if l.oslot >= lo and l.oslot <= hi then near_s[#near_s + 1], near_a[#near_a + 1] = l.oslot, l.others end
  local worst = 0
  for c = 0, #near_s do
    local i = lo
    if c > 0 then i = near_s[c] - M + 1 end
    if i >= lo and i <= j then
      local run = 0
      for k = 1, #near_s do
        if near_s[k] >= i and near_s[k] <= i + M - 1 then run = run + near_a[k] end
      end
      if run > worst then worst = run end
    end
  end
  return worst
end

-- the earliest time at or after s at which the cost fits
local function earliest(l, s)
  local g, M = l.g, l.M
  local j0 = floor(s / g)
  local oldest = j0 - M
  prune(l, oldest)
  local last = last_slot(l)
  if last <= j0 then
    local others = 0
    if l.oslot > oldest then others = l.others end
    local need = l.sum + others + l.cost - l.per - l.eps
    if need <= 0 then return s end
    -- full: walk from the oldest entry until enough has left
    local left, at = 0, 1
    local oleft = others == 0
    while true do
      local sl, a, nxt = string.match(l.list, '^([^:]*):([^,]*),?()', at)
      if sl == nil then break end
      sl = tonumber(sl)
      if not oleft and l.oslot <= sl then
        oleft, left = true, left + others
        if left >= need then return (l.oslot + M) * g end
      end
      left = left + tonumber(a)
      if left >= need then return (sl + M) * g end
      at = nxt
    end
    return (math.max(last, l.oslot) + M) * g
  end
  local slots, amounts = split(l)
  if worst_run(l, slots, amounts, j0) + l.cost <= l.per + l.eps then return s end
  for k = 1, #slots do
    local j = slots[k] + M
    if j > j0 and worst_run(l, slots, amounts, j) + l.cost <= l.per + l.eps then return j * g end
  end
  return (math.max(last, l.oslot) + M) * g
end

-- the common send time: each window moves it to its earliest, in turn, until none moves it
local s = now
local moved = true
while moved do
  moved = false
  for i = 1, n do
    local e = earliest(L[i], s)
    if e > s then s, moved = e, true end
  end
end

if s > now and (mode ~= MODE_BOOK or s - now > budget) then return { 1, tostring(s - now) } end

for i = 1, n do
  local l = L[i]
  local j = floor(s / l.g)
  local last = l.last
  if last == j then
    l.lasta = l.lasta + l.cost
  elseif last < j then
    if last ~= NONE then
      if l.list == '' then l.list = last .. ':' .. l.lasta else l.list = l.list .. ',' .. last .. ':' .. l.lasta end
    end
    l.last, l.lasta = j, l.cost
  else
    -- a send before the last entry (beside bookings ahead): insert it in order among the others
    local slots, amounts = split(l)
    local parts, placed = {}, false
    for k = 1, #slots - 1 do
      if not placed and slots[k] >= j then
        if slots[k] == j then amounts[k] = amounts[k] + l.cost else parts[#parts + 1] = j .. ':' .. l.cost end
        placed = true
      end
      parts[#parts + 1] = slots[k] .. ':' .. amounts[k]
    end
    if not placed then parts[#parts + 1] = j .. ':' .. l.cost end
    l.list = table.concat(parts, ',')
  end
  l.sum = l.sum + l.cost
  redis.call('SET', KEYS[i], l.sum .. ',' .. l.others .. ',' .. l.oslot .. ',' .. l.last .. ',' .. l.lasta .. '|' .. l.list, 'PX', math.ceil((math.max(l.last, l.oslot) + l.M + 1) * l.g - now))
end
if s > now then return { 0, tostring(s - now) } end
return 2
