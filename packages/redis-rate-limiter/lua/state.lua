-- Over 400 lines with a reason: every script is this file followed by its own, so the whole arithmetic
-- (token buckets, classes, window limits, the stored format) must be one file that each script carries.
-- The bucket arithmetic shared by every script: the same expressions, in the same order, as the
-- TypeScript core (@core/rate-limit-kit, src/gcra.ts; the contract package's MODEL.md states them).
-- A differential test (test/differential.test.ts) runs random operation sequences through both and
-- compares every decision and every stored state.
--
-- Stored value of a defined token bucket: "capacity,refillPerSec,x[,hold]" where x is the theoretical
-- arrival time tat (ms, script time) of a refilling bucket or the amount used of a fixed quota (refill 0),
-- and hold the end of a penalty in force (absent when none), then, while bookings lie ahead, the class
-- state "#L:Lc:Ln:aEnd:Pa:Pb" (classes.ts in the kit; an empty field is -infinity). A window limit (window.ts):
-- "perWindow/windowMs/jitterMs,expiry[,hold]|a:b:c:f|..." with its entries (cost c sent in [a, b], f = 1
-- for usage reported by the venue) and the time the last of them stops counting. The definition is
-- written as the client sent it (JavaScript's shortest round-trip text), so an equal definition compares
-- equal as text. A value written by a booking for later ends with ";" and the booking's token: no other
-- write stores one, so a cancel that finds exactly the booking's value knows that nothing wrote since
-- (RL-W5). A bucket never defined that has a hold or recorded debt: "p,debt,hold" (hold empty when none).
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

-- The text of every non-zero number parsed from a stored entry list in this call. Only these scripts write
-- the values, with fmt, and %.17g round-trips: the text is exactly what fmt gives for the value again, so
-- formatting the entries kept from one write to the next costs a table lookup, not a string.format each.
local FMT_SEEN = {}

local function fmt(v)
  local s = FMT_SEEN[v]
  if s ~= nil then return s end
  return string.format('%.17g', v)
end

-- base + inc, nudged up when the float sum fell short of inc: a charge is never smaller than its cost
local function add_up(base, inc)
  local r = base + inc
  if r - base < inc then r = r + math.abs(r) * ULP end
  return r
end

-- a definition from its text: "capacity,refillPerSec" (a token bucket) or "perWindow/windowMs/jitterMs"
local function define(text)
  local d = { text = text }
  local per, win, jit = string.match(text, '^([^/]*)/([^/]*)/([^/]*)$')
  local capacity, refill
  if per ~= nil then
    per, win, jit = tonumber(per), tonumber(win), tonumber(jit)
    d.window = { per = per, window_ms = win, jitter = jit, span = win + jit, eps = 1e-9 * per }
    capacity = per
    refill = (per * 1000) / win
  else
    local c, r = string.match(text, '^([^,]*),([^,]*)$')
    capacity = tonumber(c)
    refill = tonumber(r)
  end
  d.capacity = capacity
  d.refill = refill
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

-- a token bucket taking over b borrowed now, keeping a hold in force
local function from_borrowed(b, hold, to, now)
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

-- a new definition keeps the amount borrowed and never lifts a hold
local function redefine(x, hold, from, to, now)
  return from_borrowed(borrowed_at(x, from, now), hold, to, now)
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

-- admission classes (classes.ts): 0 critical, 1 normal, 2 bulk; a class state is {L, Lc, Ln, aEnd, Pa, Pb}
local CRITICAL, NORMAL = 0, 1

local function settle_classes(cs, x, now)
  if cs == nil or not (cs[1] > now) then return nil end
  if cs[4] > now then return cs end
  local last = cs[1]
  local pb = 0
  if x > last then pb = x - last end
  return { last, cs[2], cs[3], last, cs[6], pb }
end

-- a class's line for a cost: the bucket less its free share, never below the cost (up to the bucket)
local function line_of(d, free, cost)
  local whole = d.tau
  if d.quota then whole = d.capacity end
  if free == 0 then return whole end
  local line = whole * (1 - free)
  local need = cost
  if not d.quota then need = cost * d.ms_per_token end
  if need > line then
    if need < whole then return need end
    return whole
  end
  return line
end

local function window_line_of(per, free, cost)
  if free == 0 then return per end
  local line = per * (1 - free)
  if cost > line then
    if cost < per then return cost end
    return per
  end
  return line
end

local function class_send_time(x, cs, d, line, cls, cost, now)
  if d.quota then
    if x + cost <= line + d.eps then return now end
    return math.huge
  end
  local span = cost * d.ms_per_token
  local start = x
  if not (x > now) then start = now end
  local gcra = start + span - line
  if gcra - now <= d.eps then gcra = now end
  if cs == nil then return gcra end
  local peak = cs[6]
  if cs[5] > cs[6] then peak = cs[5] end
  if not (peak + span - line <= d.eps) then return gcra end
  -- room at every instant ahead: at once, or right after the latest booking of its class or a higher one
  local ahead
  if cls == CRITICAL then ahead = cs[2] elseif cls == NORMAL then ahead = cs[3] else ahead = cs[1] end
  if not (ahead > now) then return now end
  if gcra < ahead then return gcra end
  return ahead
end

-- returns x' and the class state after charging class cls's cost as of s
local function class_charge(x, cs, d, cls, cost, s, now)
  local x2 = charge_at(x, d, cost, s)
  if not (s > now) and cs == nil then return x2, nil end
  if cs == nil then
    local lc, ln = NO_HOLD, NO_HOLD
    if cls == CRITICAL then lc = s end
    if cls <= NORMAL then ln = s end
    local pa = 0
    if x > now then pa = x - now end
    return x2, { s, lc, ln, s, pa, x2 - s }
  end
  local lc, ln = cs[2], cs[3]
  if cls == CRITICAL and s > now and s > lc then lc = s end
  if cls <= NORMAL and s > now and s > ln then ln = s end
  local last = cs[1]
  if s >= last then
    local pb = cs[6]
    if x2 - s > pb then pb = x2 - s end
    return x2, { s, lc, ln, cs[4], cs[5], pb }
  end
  -- a charge before the latest booking: levels from s on rise by at most its span and stay under (x2 - t)/T
  local dd = x2 - x
  local a_end, pa, pb = cs[4], cs[5], cs[6]
  local pa2 = pa
  if s < a_end then
    local up = math.min(pa + dd, x2 - s, HORIZON_MS)
    if s > now then
      if up > pa then pa2 = up else pa2 = pa end
    else
      pa2 = up
    end
  end
  local from = a_end
  if s > a_end then from = s end
  local up_b = math.min(pb + dd, x2 - from, HORIZON_MS)
  local pb2 = up_b
  if s > a_end and not (up_b > pb) then pb2 = pb end
  return x2, { last, lc, ln, a_end, pa2, pb2 }
end

-- the class state after x was raised from before to after as of now (record, sync; held: a penalty)
local function class_raise(cs, d, before, after, held)
  if cs == nil then return nil end
  local dd = 0
  if after > before then dd = after - before end
  if dd == 0 and not held then return cs end
  local pa = math.min(cs[5] + dd, HORIZON_MS)
  local pb = math.min(cs[6] + dd, HORIZON_MS)
  if held then
    if pa < d.tau then pa = d.tau end
    if pb < d.tau then pb = d.tau end
  end
  return { cs[1], cs[2], cs[3], cs[4], pa, pb }
end

-- window limits (window.ts): entries flat, 4 numbers each: a, b, c, f
local MAX_WINDOW_ENTRIES = 128
-- a critical cost a merge may move onto the lines for nothing, as a share of the limit (a gate)
local GATE = 1e-6
local MAX_ANSWERS = 128

-- admitted sends: kinds 0 normal, 4 critical, 5 bulk; one send a sync said was answered: 10, 11, 12 (b: when the store
-- learned it; still counted by its send time a), 13, 14, 15 (one that may have arrived as late as its mark: counted
-- until b); such sends merged: 7, 8, 9 (b: the latest mark)
local function is_own_kind(f)
  return f == 0 or f == 4 or f == 5 or (f >= 7 and f <= 15)
end

-- whether a kind is an admitted send a sync said was answered, or such sends merged
local function is_answered_kind(f)
  return f >= 7 and f <= 15
end

-- whether a kind is a critical send, answered or not
local function is_critical_kind(f)
  return f == 4 or f == 8 or f == 11 or f == 14
end

-- the kind of one send of class kind f (0, 4, 5) marked answered: 10, 11, 12
local function answered_kind(f)
  if f == 4 then return 11 end
  if f == 5 then return 12 end
  return 10
end

-- the kind of merged answered sends of class kind f (0, 4, 5): 7, 8, 9
local function merged_answered_kind(f)
  if f == 4 then return 8 end
  if f == 5 then return 9 end
  return 7
end

-- the latest send time the entry at index i stands for: a for one answered send (10, 11, 12), b for every other kind
local function last_send(e, i)
  local f = e[i + 3]
  if f >= 10 and f <= 12 then return e[i] end
  return e[i + 1]
end

-- what merges with what at no cost beyond the width: entries of one kind; admitted sends of classes
-- normal and bulk together, and critical sends among themselves (a line counts every send but critical
-- ones: a critical send merged with a lower class's costs besides the span times its share of the cost)
local function merge_group(f)
  if is_own_kind(f) then
    if is_critical_kind(f) then return 4 end
    return 0
  end
  return f
end

-- two merged admitted sends take the lowest class among them, answered only when both were
local function merged_kind(f, g)
  if not is_own_kind(f) then return f end
  local cls = 4
  if f == 5 or f == 9 or f == 12 or f == 15 or g == 5 or g == 9 or g == 12 or g == 15 then cls = 5
  elseif f == 0 or f == 7 or f == 10 or f == 13 or g == 0 or g == 7 or g == 10 or g == 13 then cls = 0 end
  if is_answered_kind(f) and is_answered_kind(g) then return merged_answered_kind(cls) end
  return cls
end

local function count_at(e, span, T)
  local sum = 0
  for i = 1, #e, 4 do
    -- (last_send inlined: this loop runs for every candidate time)
    local f, u = e[i + 3], e[i + 1]
    if f >= 10 and f <= 12 then u = e[i] end
    if e[i] <= T and T < u + span then sum = sum + e[i + 2] end
  end
  return sum
end

-- the entry kind of an admitted send of class cls (0 critical, 1 normal, 2 bulk), and whether a kind is one
local function own_kind(cls)
  if cls == 0 then return 4 end
  if cls == 2 then return 5 end
  return 0
end

-- room for cost in the interval ending at T: within the limit, every entry counted, and within the class's
-- line, every entry but critical sends (kinds 4, 8, 11, 14) counted: they spend the share the line keeps
-- free (RL-Q4); and, every entry counted, within the limit less keep (bulk's half share, bulk_keep)
local function room_at(e, w, cost, T, line, keep)
  local count, critical = 0, 0
  for i = 1, #e, 4 do
    -- (last_send inlined: this loop runs for every candidate time)
    local f, u = e[i + 3], e[i + 1]
    if f >= 10 and f <= 12 then u = e[i] end
    if e[i] <= T and T < u + w.span then
      count = count + e[i + 2]
      if is_critical_kind(e[i + 3]) then critical = critical + e[i + 2] end
    end
  end
  if count > w.per + w.eps - cost then return false end
  if line == w.per then return true end
  if count - critical > line + w.eps - cost then return false end
  return keep == 0 or not (count > w.per - keep + w.eps - cost)
end

-- what a class leaves free whatever critical calls spent (RL-Q4): bulk half the share its line keeps free
local function bulk_keep(per, line, cls)
  if cls == 2 then return (per - line) / 2 end
  return 0
end

local function fits(e, w, cost, t, line, keep)
  if not room_at(e, w, cost, t, line, keep) then return false end
  for i = 1, #e, 4 do
    local a = e[i]
    if a > t and a < t + w.span and not room_at(e, w, cost, a, line, keep) then return false end
  end
  return true
end

local function window_send_time(e, w, cost, from, line, keep)
  if line == nil then line = w.per end
  if keep == nil then keep = 0 end
  if cost > line + w.eps then return math.huge end
  if fits(e, w, cost, from, line, keep) then return from end
  local candidates = {}
  for i = 1, #e, 4 do
    local t = last_send(e, i) + w.span
    if t > from then candidates[#candidates + 1] = t end
  end
  table.sort(candidates)
  for _, t in ipairs(candidates) do
    if fits(e, w, cost, t, line, keep) then return t end
  end
  return math.huge
end

-- heldIndex (window.ts, RL-V8): the first unanswered admitted send of cost held at held_at (to within a
-- microsecond), or nil
local function held_index(e, cost, held_at)
  for i = 1, #e, 4 do
    local f = e[i + 3]
    if (f == 0 or f == 4 or f == 5) and e[i] == e[i + 1] and math.abs(e[i] - held_at) <= 1e-3 and e[i + 2] == cost then return i end
  end
  return nil
end

-- a copy of the entries without the one at index i
local function without_entry(e, i)
  local others = {}
  for j = 1, #e do
    if j < i or j >= i + 4 then others[#others + 1] = e[j] end
  end
  return others
end

-- withoutHeld (window.ts): the entries without that send; the list itself when there is none
local function without_held(e, cost, held_at)
  local i = held_index(e, cost, held_at)
  if i == nil then return e end
  return without_entry(e, i)
end

-- windowHeldWait (window.ts, RL-V8): 0 when the booked send held at held_at (one unanswered send of its
-- own there, of exactly cost) still fits there with everything else counted, against the limit itself;
-- else the wait until a new admission of cost fits, its entry still counted, at least 1; 0 when not held
local function window_held_wait(e, w, cost, held_at, now)
  local i = held_index(e, cost, held_at)
  if i == nil then return 0 end
  -- asked at the entry's own time (the caller's copy may be off by a rounding)
  if fits(without_entry(e, i), w, cost, e[i], w.per, 0) then return 0 end
  return math.max(1, window_send_time(e, w, cost, now, w.per, 0) - now)
end

-- the kind of the entry marking where a fixed window began, as the last report bounded it (cost 0)
local START_KIND = 6

-- the entries still counting for an interval ending at or after now; the start marker stays while any other does
local function prune_window(e, w, now)
  local any = false
  for i = 1, #e, 4 do
    if e[i + 3] ~= START_KIND and last_send(e, i) + w.span > now then any = true end
  end
  local out = {}
  for i = 1, #e, 4 do
    if last_send(e, i) + w.span > now or (any and e[i + 3] == START_KIND) then
      out[#out + 1] = e[i]; out[#out + 1] = e[i + 1]; out[#out + 1] = e[i + 2]; out[#out + 1] = e[i + 3]
    end
  end
  return out
end

-- what merging into the range [a, b] costs syncs beyond its width, ms (window.ts syncCost): 0 sent 2 jitters before now or booked
-- after now, 2 jitters inside the last 2 jitters, window_ms from before them into them; with a start marked by a report, window_ms
-- more when not within one aligned window clear of its first 2 jitters, or not within one window of its phase 2 jitters clear of both ends
local function sync_cost(a, b, w, now, start)
  local line = now - 2 * w.jitter
  local recent
  if b <= line or a > now then recent = 0 elseif a > line then recent = 2 * w.jitter else recent = w.window_ms end
  if start == nil then return recent end
  local k = math.floor(a / w.window_ms)
  if not (k == math.floor(b / w.window_ms) and a - k * w.window_ms >= 2 * w.jitter) then return recent + w.window_ms end
  local from = start + math.floor((a - start) / w.window_ms) * w.window_ms
  if a - from >= 2 * w.jitter and b < from + w.window_ms - 2 * w.jitter then return recent end
  return recent + w.window_ms
end

-- where a list's start marker puts the venue's windows, or nil
local function marked_start(e)
  for i = 1, #e, 4 do
    if e[i + 3] == START_KIND then return e[i] end
  end
  return nil
end

local function add_entry(e, a, b, cost, f, w, now)
  local out = {}
  local placed = false
  for i = 1, #e, 4 do
    if not placed and a < e[i] then
      out[#out + 1] = a; out[#out + 1] = b; out[#out + 1] = cost; out[#out + 1] = f
      placed = true
    end
    out[#out + 1] = e[i]; out[#out + 1] = e[i + 1]; out[#out + 1] = e[i + 2]; out[#out + 1] = e[i + 3]
  end
  if not placed then
    out[#out + 1] = a; out[#out + 1] = b; out[#out + 1] = cost; out[#out + 1] = f
  end
  while #out > MAX_WINDOW_ENTRIES * 4 do
    local bi, bj, best = -1, -1, math.huge
    local start = marked_start(out)
    -- for each entry, the next one of its merge group and the next admitted send (-1: none), in one pass
    local next_same, next_own, last_of, last_own = {}, {}, {}, -1
    for i = #out - 3, 1, -4 do
      local g = merge_group(out[i + 3])
      next_same[i] = last_of[g] or -1
      last_of[g] = i
      next_own[i] = last_own
      if is_own_kind(out[i + 3]) then last_own = i end
    end
    for i = 1, #out, 4 do
      local fi = out[i + 3]
      local j = next_same[i]
      if j >= 0 then
        local stop = math.max(out[i + 1], out[j + 1])
        local score = stop - out[i] + sync_cost(out[i], stop, w, now, start)
        if score < best then
          best, bi, bj = score, i, j
        end
      end
      if is_own_kind(fi) then
        -- the next admitted send of the other side (critical or not): merged, the critical cost counts
        -- against the lines for as long as it counts; a critical cost of at most a millionth of the
        -- limit (a gate) costs them nothing to speak of
        local k = next_own[i]
        if k >= 0 and merge_group(out[k + 3]) ~= merge_group(fi) then
          local stop = math.max(out[i + 1], out[k + 1])
          local ci, ck = out[i + 2], out[k + 2]
          local critical = ck
          if is_critical_kind(fi) then critical = ci end
          local score = stop - out[i] + sync_cost(out[i], stop, w, now, start)
          if critical > GATE * w.per then score = score + (w.span * critical) / (ci + ck) end
          if score < best then
            best, bi, bj = score, i, k
          end
        end
      end
    end
    out[bi + 1] = math.max(out[bi + 1], out[bj + 1])
    out[bi + 2] = math.min(out[bi + 2] + out[bj + 2], MAX_AMOUNT)
    out[bi + 3] = merged_kind(out[bi + 3], out[bj + 3])
    for _ = 1, 4 do table.remove(out, bj) end
  end
  return out
end

local function window_borrowed(e, w, now)
  local most = count_at(e, w.span, now)
  for i = 1, #e, 4 do
    if e[i] > now then most = math.max(most, count_at(e, w.span, e[i])) end
  end
  return most
end

local function window_expiry(e, w)
  local last = -math.huge
  for i = 1, #e, 4 do last = math.max(last, last_send(e, i) + w.span) end
  return last
end

local function window_charge(e, w, cost, s, now, cls)
  return add_entry(prune_window(e, w, now), s, s, cost, own_kind(cls), w, now)
end

-- a record (kind 3 at now); with late = { t, x, y } (RL-V7) the first own entry of one send at t (within a
-- microsecond) of exactly cost moves to [x, y] instead (answered: counted until its mark, or [x, max(mark, y)] of
-- its merged answered kind); merged with others, every own entry whose range holds t counts until y at the least
local function window_record(e, w, cost, now, late)
  local kept = prune_window(e, w, now)
  if late ~= nil then
    local t, x, y = late[1], late[2], late[3]
    for i = 1, #kept, 4 do
      local f = kept[i + 3]
      if math.abs(kept[i] - t) <= 1e-3 and kept[i + 2] == cost and is_own_kind(f) then
        local single = kept[i] == kept[i + 1] and not is_answered_kind(f)
        if single or (f >= 10 and f <= 15) then
          if not single and math.abs(x - kept[i]) <= 1e-3 and y <= kept[i + 1] then
            -- sent when admitted, arrived by its mark at the latest: counted until its mark, still one send
            if is_critical_kind(f) then kept[i + 3] = 14 elseif f == 5 or f == 12 or f == 15 then kept[i + 3] = 15 else kept[i + 3] = 13 end
            return kept
          end
          local b, g = y, f
          if not single then
            b = math.max(kept[i + 1], y)
            if is_critical_kind(f) then g = 8 elseif f == 12 or f == 15 then g = 9 else g = 7 end
          end
          for _ = 1, 4 do table.remove(kept, i) end
          return add_entry(kept, x, b, cost, g, w, now)
        end
      end
    end
    -- merged with other sends: every own entry (not one answered send) whose range holds t counts until y at the least
    local widened = false
    for i = 1, #kept, 4 do
      local f = kept[i + 3]
      if is_own_kind(f) and not (f >= 10 and f <= 15) and kept[i] - 1e-3 <= t and t <= kept[i + 1] + 1e-3 then
        kept[i + 1] = math.max(kept[i + 1], y)
        widened = true
      end
    end
    if widened then return kept end
  end
  return add_entry(kept, now, now, math.min(cost, MAX_AMOUNT), 3, w, now)
end

-- reports (flat a, b, c) latest first: by b descending, then cost descending, then a ascending
local function latest_first(r)
  local idx = {}
  for i = 1, #r, 3 do idx[#idx + 1] = i end
  table.sort(idx, function(x, y)
    if r[x + 1] ~= r[y + 1] then return r[x + 1] > r[y + 1] end
    if r[x + 2] ~= r[y + 2] then return r[x + 2] > r[y + 2] end
    return r[x] < r[y]
  end)
  return idx
end

-- reports kept as kind-1 entries summing, in any interval from now on, to the largest report still counting there
local function add_reports(kept, prior, added, w, now)
  local whole = {}
  local sum = 0
  for _, i in ipairs(latest_first(prior)) do
    sum = sum + prior[i + 2]
    whole[#whole + 1] = prior[i]; whole[#whole + 1] = prior[i + 1]; whole[#whole + 1] = sum
  end
  for i = 1, #added do whole[#whole + 1] = added[i] end
  local out = kept
  local most = 0
  for _, i in ipairs(latest_first(whole)) do
    local c = whole[i + 2]
    if c - most > w.eps then
      out = add_entry(out, whole[i], whole[i + 1], c - most, 1, w, now)
      most = c
    end
  end
  return out
end

-- sent_at: when the reporting request was sent, or nil; since: the earliest its window can have begun, or nil
-- marks the reporting request's own entry answered: the first admitted send not yet answered at sent_at
-- (within a microsecond: the epoch conversion rounds) of exactly answered_cost gets its answered kind, b = now
local function mark_answered(e, sent_at, answered_cost, now)
  if sent_at == nil or answered_cost == nil or not (sent_at <= now) then return e end
  for i = 1, #e, 4 do
    local f = e[i + 3]
    if e[i] == e[i + 1] and math.abs(e[i] - sent_at) <= 1e-3 and e[i + 2] == answered_cost and is_own_kind(f) and not is_answered_kind(f) then
      e[i + 1] = now
      e[i + 3] = answered_kind(f)
      break
    end
  end
  return e
end

-- answer records (the kit's windowSync): flat { a, b, c, used, end_earliest, end_latest } per send a
-- sync with a window end marked answered, as text items 'a/b/c/used/earliest/latest' joined by '|'
local function parse_answers(text)
  local r = {}
  if text == nil then return r end
  for a, b, c, u, x, y in string.gmatch(text, '([^/|]+)/([^/|]+)/([^/|]+)/([^/|]+)/([^/|]+)/([^/|]+)') do
    for _, t in ipairs({ a, b, c, u, x, y }) do
      local v = tonumber(t)
      r[#r + 1] = v
      -- (kept as parsed, so that writing the records back costs no string.format: see FMT_SEEN)
      if v ~= 0 and v == v then FMT_SEEN[v] = t end
    end
  end
  return r
end

local function fmt_answers(r)
  local parts = {}
  for j = 1, #r, 6 do
    parts[#parts + 1] = fmt(r[j]) .. '/' .. fmt(r[j + 1]) .. '/' .. fmt(r[j + 2]) .. '/' .. fmt(r[j + 3]) .. '/' .. fmt(r[j + 4]) .. '/' .. fmt(r[j + 5])
  end
  return table.concat(parts, '|')
end

local function is_single_answered(f)
  return f >= 10 and f <= 15
end

-- the record of the single answered send at i, or nil: only when one entry and one record carry its send
-- time, mark and cost
local function answer_of(e, i, r)
  local a, b, c = e[i], e[i + 1], e[i + 2]
  local found = nil
  for j = 1, #r, 6 do
    if r[j] == a and r[j + 1] == b and r[j + 2] == c then
      if found ~= nil then return nil end
      found = j
    end
  end
  if found == nil then return nil end
  for k = 1, #e, 4 do
    if k ~= i and e[k] == a and e[k + 1] == b and e[k + 2] == c and is_single_answered(e[k + 3]) then return nil end
  end
  return found
end

-- the records after a sync: those of sends still in the window, the latest MAX_ANSWERS, and the marked send's
local function note_answer(r, e, w, now, sent_at, answered_cost, used, end_at)
  local out = {}
  for j = 1, #r, 6 do
    if r[j] + w.span > now then
      for k = 0, 5 do out[#out + 1] = r[j + k] end
    end
  end
  if end_at ~= nil and sent_at ~= nil and answered_cost ~= nil then
    for i = 1, #e, 4 do
      if e[i + 1] == now and is_single_answered(e[i + 3]) and e[i + 2] == answered_cost and math.abs(e[i] - sent_at) <= 1e-3 then
        out[#out + 1] = e[i]; out[#out + 1] = now; out[#out + 1] = answered_cost
        out[#out + 1] = used; out[#out + 1] = end_at[1]; out[#out + 1] = end_at[2]
        break
      end
    end
  end
  if #out > MAX_ANSWERS * 6 then
    local cut = {}
    for j = #out - MAX_ANSWERS * 6 + 1, #out do cut[#cut + 1] = out[j] end
    out = cut
  end
  return out
end

-- a sync with the window's answer records (text or nil) and the reported window's end ({ earliest, latest }
-- or nil): the entries, and the records' text
local function window_sync(e, answers, w, used, now, sent_at, since, counted_own, answered_cost, end_at)
  local pruned = mark_answered(prune_window(e, w, now), sent_at, answered_cost, now)
  local r = parse_answers(answers)
  local known = sent_at ~= nil and sent_at <= now
  local s = now
  if known then s = math.max(sent_at, now - HORIZON_MS) end
  -- counted by now (its answer came back) and at most the jitter allowance after it was sent
  local latest_start = math.min(s + w.jitter, now) - w.window_ms
  if since ~= nil then latest_start = math.max(since, latest_start) end
  local arrived = s - w.jitter
  -- a fixed window's start, kept as the marker merges keep their ranges clear of
  local marks = since ~= nil and since <= now and since + w.span > now
  local ours = 0
  if known then ours = counted_own end
  -- a window end known to within a quarter window tells its window from the next
  if not (known and end_at ~= nil and end_at[1] <= end_at[2] and end_at[2] - end_at[1] < w.window_ms / 4) then end_at = nil end
  -- a fixed window began at or after `forget` (RL-V9): what surely reached the venue before it counts in
  -- none of the venue's windows that can still hold a send (capped at the latest the venue counted the report)
  local forget = -math.huge
  if end_at ~= nil then forget = math.min(end_at[1] - w.window_ms, math.min(s + w.jitter, now)) end
  local reported = math.min(used, MAX_AMOUNT)
  local reports = {}
  local kept = {}
  for i = 1, #pruned, 4 do
    local a, b, c, f = pruned[i], pruned[i + 1], pruned[i + 2], pruned[i + 3]
    if f == 1 then
      if not (known and b + w.jitter <= s) and not (b + w.jitter < forget) then
        reports[#reports + 1] = a; reports[#reports + 1] = b; reports[#reports + 1] = c
      end
    elseif not (f == START_KIND and marks) then
      local keep = true
      -- arrived by its send time, or answered before the reporting request was sent
      if is_own_kind(f) and known and a > latest_start and (last_send(pruned, i) <= arrived or (is_answered_kind(f) and b < s)) then
        ours = ours + c
      elseif end_at ~= nil and is_single_answered(f) then
        -- counted in the same fixed window before the reporting request: its own answer reported less of it
        local j = answer_of(pruned, i, r)
        if j ~= nil and r[j + 3] < reported and r[j + 4] <= end_at[2] and end_at[1] <= r[j + 5] then
          ours = ours + c
        elseif last_send(pruned, i) + w.jitter < forget then
          keep = false
        end
      elseif is_own_kind(f) and last_send(pruned, i) + w.jitter < forget then
        keep = false
      end
      if keep then
        kept[#kept + 1] = a; kept[#kept + 1] = b; kept[#kept + 1] = c; kept[#kept + 1] = f
      end
    end
  end
  if marks then kept = add_entry(kept, since, since, 0, START_KIND, w, now) end
  local others = reported - ours
  -- at the latest time the venue counted it, less the jitter allowance: counted until one window after it
  local at = s
  if known then at = math.min(s + w.jitter, now) - w.jitter end
  local added = {}
  if others > w.eps then added = { at, at, others } end
  return add_reports(kept, reports, added, w, now), fmt_answers(note_answer(r, pruned, w, now, sent_at, answered_cost, reported, end_at))
end

local function window_penalize(e, w, until_ms, now)
  local u = clamp_hold(until_ms, now)
  if not (u + w.span > now) then return prune_window(e, w, now) end
  return add_entry(prune_window(e, w, now), math.min(now, u), u, w.per, 2, w, now)
end

local function window_fold_pending(debt, hold, w, now)
  local e = {}
  if hold > NO_HOLD then e = window_penalize(e, w, hold, now) end
  if debt > 0 then e = window_record(e, w, debt, now) end
  return e
end

local function window_from_borrowed(b, hold, w, now)
  local e = {}
  if b > 0 then e = add_entry({}, now, now, math.min(b, MAX_AMOUNT), 3, w, now) end
  if hold > now then e = window_penalize(e, w, hold, now) end
  return e
end

local function number_or_no_hold(text)
  if text == nil or text == '' then return NO_HOLD end
  return tonumber(text)
end

-- a stored value: { pending = true, debt, hold }, or { text, x, hold, entries (window limits) }; nil when absent
local function parse(raw)
  if not raw then return nil end
  local token = string.find(raw, ';', 1, true)
  if token then raw = string.sub(raw, 1, token - 1) end
  local bar = string.find(raw, '|', 1, true)
  local head = raw
  if bar then head = string.sub(raw, 1, bar - 1) end
  local classes = nil
  local hash = string.find(head, '#', 1, true)
  if hash then
    classes = {}
    for v in string.gmatch(string.sub(head, hash + 1) .. ':', '([^:]*):') do
      if v == '' then classes[#classes + 1] = NO_HOLD else classes[#classes + 1] = tonumber(v) end
    end
    head = string.sub(head, 1, hash - 1)
  end
  if string.sub(head, 1, 2) == 'p,' then
    local debt, hold = string.match(head, '^p,([^,]*),([^,]*)$')
    if debt == nil then return nil end
    return { pending = true, debt = tonumber(debt), hold = number_or_no_hold(hold) }
  end
  local text, x, h
  if string.find(head, '/', 1, true) then
    text, x, h = string.match(head, '^([^,]*),([^,]*),?([^,]*)$')
  else
    local a, b
    a, b, x, h = string.match(head, '^([^,]*),([^,]*),([^,]*),?([^,]*)$')
    if a ~= nil then text = a .. ',' .. b end
  end
  if text == nil then return nil end
  local st = { pending = false, text = text, x = tonumber(x), hold = number_or_no_hold(h), classes = classes }
  if bar then
    local e = {}
    local n = 0
    -- answer records (window_sync) follow the entries, as items with '/' and no ':'
    local rs = string.find(raw, '|[^|:]*/', bar)
    local body = string.sub(raw, bar + 1)
    if rs then
      body = string.sub(raw, bar + 1, rs - 1)
      st.answers = string.sub(raw, rs + 1)
    end
    for a, b, c, f in string.gmatch(body, '([^:|]+):([^:|]+):([^:|]+):([^:|]+)') do
      local va, vb, vc = tonumber(a), tonumber(b), tonumber(c)
      e[n + 1] = va; e[n + 2] = vb; e[n + 3] = vc; e[n + 4] = tonumber(f)
      n = n + 4
      -- (0 is left out: -0 and 0 are one table key but two texts; nan cannot be a key)
      if va ~= 0 and va == va then FMT_SEEN[va] = a end
      if vb ~= 0 and vb == vb then FMT_SEEN[vb] = b end
      if vc ~= 0 and vc == vc then FMT_SEEN[vc] = c end
    end
    st.entries = e
  elseif string.find(text, '/', 1, true) then
    st.entries = {}
  end
  return st
end

-- a defined bucket that is full and not held behaves exactly like an absent one (it may expire any time)
local function live(st, now)
  if st == nil or st.pending then return st end
  local d = define(st.text)
  local full
  if d.quota then full = st.x <= 0 else full = st.x <= now end
  if full and not (st.hold > now) then return nil end
  return st
end

-- a token bucket's x and hold under definition d now: converted (keeping the hold), or folded from pending
local function effective(raw, d, now)
  local st = parse(raw)
  if st == nil then return fresh(d, now), NO_HOLD end
  if st.pending then return fold_pending(st.debt, st.hold, d, now), st.hold end
  if st.text == d.text then
    if d.quota then return st.x, st.hold end
    return st.x, st.hold, st.classes
  end
  local from = define(st.text)
  if from.window then return from_borrowed(window_borrowed(st.entries, from.window, now), st.hold, d, now), st.hold end
  return redefine(st.x, st.hold, from, d, now), st.hold
end

-- a window limit's entries and hold under window definition d now: kept, converted, or folded from pending
local function effective_window(raw, d, now)
  local st = parse(raw)
  if st == nil then return {}, NO_HOLD end
  if st.pending then return window_fold_pending(st.debt, st.hold, d.window, now), st.hold end
  -- entries carry over to another window definition, unless the bucket is idle: then it is absent
  if st.entries then
    if live(st, now) == nil then return {}, NO_HOLD end
    return st.entries, st.hold, st.answers
  end
  return window_from_borrowed(borrowed_at(st.x, define(st.text), now), st.hold, d.window, now), st.hold
end

local function fmt_entries(e)
  local parts = {}
  for i = 1, #e, 4 do parts[#parts + 1] = fmt(e[i]) .. ':' .. fmt(e[i + 1]) .. ':' .. fmt(e[i + 2]) .. ':' .. fmt(e[i + 3]) end
  return table.concat(parts, '|')
end

local function fmt_class(v)
  if v == NO_HOLD then return '' end
  return fmt(v)
end

-- writes a defined bucket (or deletes one that is full and not held); returns the stored string. For a
-- window limit x is ignored: its entries are written with their expiry, and its answer records (text, or
-- nil) after them. classes: a token bucket's class state, or nil.
local function store(key, d, x, hold, now, slack, token, entries, classes, answers)
  if d.window then x = window_expiry(entries, d.window) end
  local full
  if d.quota then full = x <= 0 else full = x <= now end
  if full and not (hold > now) and token == '' then
    redis.call('DEL', key)
    return ''
  end
  local value = d.text .. ',' .. fmt(x)
  if hold > now then value = value .. ',' .. fmt(hold) end
  if classes ~= nil and not d.window and not d.quota then
    local c = {}
    for i = 1, 6 do c[i] = fmt_class(classes[i]) end
    value = value .. '#' .. table.concat(c, ':')
  end
  if d.window and #entries > 0 then value = value .. '|' .. fmt_entries(entries) end
  if d.window and answers ~= nil and answers ~= '' then value = value .. '|' .. answers end
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
