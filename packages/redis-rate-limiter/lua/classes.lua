-- Admission classes (the kit's classes.ts, RL-Q1..RL-Q6): a class's line on a bucket, its send time and the
-- class state a bucket that refills keeps while bookings lie ahead.

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