// Prototype of the window representation proposed in MODEL.md ("Window limits: the slot ledger"): a window
// limit keeps the cost sent per slot of windowMs / K, only for the slots that hold something and can still count,
// with their sum; it admits a send in slot j when every run of M consecutive slots containing j stays within its
// line. Plain JavaScript, for the prototype bench only (bench.mjs beside it).

/** Slot geometry of one definition: K slots per window, g ms each, M slots in the widest run an interval of windowMs + jitterMs can touch. */
export function geometry(def, K) {
  const g = def.windowMs / K;
  const span = def.windowMs + def.jitterMs;
  const M = Math.ceil(span / g - 1e-9) + 1;
  return { K, g, M, span, eps: 1e-9 * def.perWindow };
}

/** The utilization the slot ledger guarantees in steady saturation on a rolling window, with no report: K / (ceil(K·(1 + J/W)) + 1). */
export function predictedUtilization(def, K) {
  const { M, g } = geometry(def, K);
  return def.windowMs / (M * g);
}

/**
 * A ledger: the slots that hold something, in order (`slot[head..]`, `amount[head..]`), their sum, others' reported
 * usage, the slot it counts in and the time from which a send no longer meets it (a fixed window's end), the first
 * slot a hold leaves open (none: -Infinity), the start of the latest fixed window a report told (-Infinity: none)
 * and that window's end, known to within [endMin, endMax] (Infinity: none).
 */
export function emptyLedger() {
  return {
    slot: [],
    amount: [],
    head: 0,
    sum: 0,
    others: 0,
    othersSlot: -Infinity,
    othersUntil: Infinity,
    openFrom: -Infinity,
    windowFrom: -Infinity,
    endMin: Infinity,
    endMax: Infinity,
  };
}

const slotOf = (t, geo) => Math.floor(t / geo.g);

/**
 * Once time `t` is past the reported fixed window's end, that window is over for every send from `t` on: what surely
 * reached the venue before it ended is forgotten, and so is others' usage reported in it.
 */
function rollOver(L, def, geo, t) {
  if (t < L.endMax) return;
  const floor = Math.floor((L.endMin - def.jitterMs) / geo.g);
  while (L.head < L.slot.length && L.slot[L.head] < floor) L.sum -= L.amount[L.head++];
  if (L.othersUntil <= L.endMax) L.others = 0;
  L.windowFrom = L.endMin;
  L.endMin = Infinity;
  L.endMax = Infinity;
}

/** Forgets the slots no run containing slot `j` or a later one can hold (those at or before j − M). */
function prune(L, geo, j) {
  const oldest = j - geo.M;
  while (L.head < L.slot.length && L.slot[L.head] <= oldest) L.sum -= L.amount[L.head++];
  if (L.head > 64 && L.head * 2 > L.slot.length) {
    L.slot.splice(0, L.head);
    L.amount.splice(0, L.head);
    L.head = 0;
  }
}

/** The largest run of M slots that contains slot `j`, counting others' usage (all entries are within j − M < slot). */
function worstRun(L, geo, j) {
  const M = geo.M;
  const others = (i) => (L.othersSlot >= i && L.othersSlot <= i + M - 1 ? L.others : 0);
  // runs [i, i + M − 1] for i in [j − M + 1, j]; the sum changes where an entry enters or leaves: walk entries.
  let worst = 0;
  let lo = L.head;
  let hi = L.head;
  let run = 0;
  for (let i = j - M + 1; i <= j; ) {
    while (hi < L.slot.length && L.slot[hi] <= i + M - 1) run += L.amount[hi++];
    while (lo < hi && L.slot[lo] < i) run -= L.amount[lo++];
    const here = run + others(i);
    if (here > worst) worst = here;
    // next i where the run can change: an entry leaves (slot[lo] + 1) or enters (slot[hi] − M + 1)
    const leave = lo < hi ? L.slot[lo] + 1 : Infinity;
    const enter = hi < L.slot.length ? L.slot[hi] - M + 1 : Infinity;
    const o1 = L.othersSlot - M + 1 > i ? L.othersSlot - M + 1 : Infinity;
    const o2 = L.othersSlot + 1 > i ? L.othersSlot + 1 : Infinity;
    i = Math.min(leave, enter, o1, o2);
  }
  return worst;
}

/**
 * The earliest time at or after `s` at which cost `c` fits under `line`. Fast path: nothing lies after slot(s), so
 * the only run that matters is the one ending there, whose sum is kept: O(1). Otherwise the candidates are slot(s)
 * and the slots where an entry leaves every run (its slot + M): the first that fits.
 */
export function earliest(L, def, geo, s, c, line) {
  if (c > line + geo.eps) return Infinity;
  if (s >= L.endMax) rollOver(L, def, geo, s);
  const t = earliestIn(L, geo, s, c, line);
  if (t <= L.endMax) return t;
  // past the reported fixed window's end, that window is over: ask again from its end, as the ledger will be then
  const rolled = { ...L, slot: L.slot, amount: L.amount };
  rollOver(rolled, def, geo, L.endMax);
  return Math.min(t, earliestIn(rolled, geo, L.endMax, c, line));
}

function earliestIn(L, geo, s, c, line) {
  const j0 = Math.max(slotOf(s, geo), L.openFrom);
  if (j0 > slotOf(s, geo)) s = j0 * geo.g;
  const last = L.slot.length > L.head ? L.slot[L.slot.length - 1] : -Infinity;
  const oldest = j0 - geo.M;
  if (last <= j0 && (L.head === L.slot.length || L.slot[L.head] > oldest)) {
    const others = L.othersSlot > oldest && s < L.othersUntil ? L.others : 0;
    const need = L.sum + others + c - line - geo.eps;
    if (need <= 0) return s;
    // full: walk from the oldest entry until enough has left
    let left = 0;
    let othersLeft = others === 0;
    for (let k = L.head; k < L.slot.length; k++) {
      if (!othersLeft && L.othersSlot <= L.slot[k]) {
        othersLeft = true;
        left += others;
        if (left >= need) return (L.othersSlot + geo.M) * geo.g;
      }
      left += L.amount[k];
      if (left >= need) return (L.slot[k] + geo.M) * geo.g;
    }
    return (Math.max(last, L.othersSlot) + geo.M) * geo.g;
  }
  if (worstRun(L, geo, j0) + c <= line + geo.eps) return s;
  for (let k = L.head; k < L.slot.length; k++) {
    const j = L.slot[k] + geo.M;
    if (j <= j0) continue;
    if (worstRun(L, geo, j) + c <= line + geo.eps) return j * geo.g;
  }
  return (Math.max(last, L.othersSlot) + geo.M) * geo.g;
}

/** Charges cost `c` sent at `t` (t ≥ now), forgetting first what no run from `now` on can hold. */
export function charge(L, def, geo, t, c, now) {
  if (now >= L.endMax) rollOver(L, def, geo, now);
  prune(L, geo, slotOf(now, geo));
  const j = slotOf(t, geo);
  L.sum += c;
  let k = L.slot.length;
  while (k > L.head && L.slot[k - 1] > j) k--;
  if (k > L.head && L.slot[k - 1] === j) L.amount[k - 1] += c;
  else {
    L.slot.splice(k, 0, j);
    L.amount.splice(k, 0, c);
  }
}

/**
 * A venue's report: `used` counted in its window for a request sent at `sentAt`; `windowEnd` (a fixed window's end,
 * known to within the interval) or none (rolling). Others' use is `used` less own sends certainly counted (sent after
 * the window surely began and at least J before the report's request) or `countedOwnCost` (what the caller knows the
 * venue counted of its own sends in that window: the reporting request, and its earlier requests whose answers
 * reported a lower count of the same fixed window), whichever is larger: each is a lower bound of the truth. It is kept at c − J, where c
 * is the latest time the venue can have counted it, replacing a report the venue had counted before this request was
 * sent and keeping the larger otherwise. A fixed window forgets what reached the venue before the window began.
 */
export function sync(L, def, geo, now, used, sentAt, countedOwnCost, windowEnd) {
  const J = def.jitterMs;
  const c = Math.min(sentAt + J, now);
  const fixed = windowEnd !== undefined && windowEnd.latestMs - windowEnd.earliestMs < def.windowMs / 4;
  // a report of a fixed window that ended before the latest one reported began tells nothing any more
  if (fixed && windowEnd.latestMs <= L.windowFrom) return;
  const startsBy = fixed ? windowEnd.latestMs - def.windowMs : c - def.windowMs;
  // a send at t is surely in the window when t > startsBy (rolling: the window is open at its start) or t >= startsBy (fixed)
  const first = fixed ? Math.ceil(startsBy / geo.g) : Math.floor(startsBy / geo.g) + 1;
  const lastCounted = Math.floor((sentAt - J) / geo.g) - 1;
  let own = 0;
  for (let k = L.head; k < L.slot.length && L.slot[k] <= lastCounted; k++) if (L.slot[k] >= first) own += L.amount[k];
  // both are lower bounds of what of this deployment's the venue counted: the larger is one too
  const others = used - Math.max(own, countedOwnCost);
  // an earlier report the venue counted before this request was sent is covered by this one
  if ((L.othersSlot + 1) * geo.g + J <= sentAt) L.others = 0;
  if (others > geo.eps) {
    L.others = Math.max(L.others, others);
    L.othersSlot = Math.max(L.othersSlot, slotOf(c - J, geo));
    L.othersUntil = fixed ? windowEnd.latestMs : Infinity;
  }
  if (fixed) {
    // forget what surely reached the venue before the window began: slots whose last instant + J is before B
    const B = Math.min(windowEnd.earliestMs - def.windowMs, c);
    if (B > L.windowFrom) L.windowFrom = B;
    const floor = Math.floor((B - J) / geo.g);
    while (L.head < L.slot.length && L.slot[L.head] < floor) L.sum -= L.amount[L.head++];
    // and from the window's end on, what reached it before that end
    L.endMin = windowEnd.earliestMs;
    L.endMax = windowEnd.latestMs;
  }
}
