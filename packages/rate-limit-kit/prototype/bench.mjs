// Prototype bench of the slot ledger (slot-window.mjs): a simulated venue, for safety and utilization as the venue
// counts it, against the prediction; then the arithmetic's cost per call in process. The Lua half's server CPU is
// measured by lua-bench.mjs. Usage: node packages/rate-limit-kit/prototype/bench.mjs [--K 64]
import { charge, earliest, emptyLedger, geometry, predictedUtilization, sync } from './slot-window.mjs';

const args = process.argv.slice(2);
const K = args.includes('--K') ? Number(args[args.indexOf('--K') + 1]) : 64;

/** A seeded generator (mulberry32), so a run can be replayed. */
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * One saturated sender against a venue: asks for the earliest send time of each request, sends then; the request
 * arrives after a delay in [0, J] and its answer (the venue's count) comes back as fast again. With `reports`, each
 * answer is a sync (the fixed window's end, when the venue's windows are fixed and aligned). Returns the venue's
 * largest count in one window and the utilization over complete windows (cost counted / perWindow per window).
 */
function simulate({ def, venue, reports, seconds, cost, seed, othersPerWindow = 0, demandPerWindow = 0 }) {
  const geo = geometry(def, K);
  const L = emptyLedger();
  const rnd = random(seed);
  const arrivals = []; // sorted by arrival time
  const answers = [];
  const W = def.windowMs;
  const endMs = seconds * 1000;
  let now = 0;
  const windowEnd = (a) => (Math.floor(a / W) + 1) * W;
  const insert = (x) => {
    let i = arrivals.length;
    while (i > 0 && arrivals[i - 1].at > x.at) i--;
    arrivals.splice(i, 0, x);
  };
  /** The venue's count when it counts a request arriving at `a` (itself included). */
  const countAt = (a) => {
    let n = 0;
    const from = venue === 'fixed' ? windowEnd(a) - W : a - W;
    for (let i = arrivals.length - 1; i >= 0 && arrivals[i].at >= from; i--)
      if (arrivals[i].at <= a && (venue === 'fixed' || arrivals[i].at > from)) n += arrivals[i].cost;
    return n;
  };
  // others: a burst at the start of each window, which this deployment sees only in reports
  if (othersPerWindow > 0) for (let t = 0; t < endMs; t += W) insert({ at: t + 0.5, cost: othersPerWindow, others: true });
  let arrival = 0;
  const answered = new Map();
  while (now < endMs) {
    const c = typeof cost === 'function' ? cost(rnd) : cost;
    // a spread demand: requests come at random at demandPerWindow per window; each goes at its earliest
    if (demandPerWindow > 0) {
      arrival += (-Math.log(1 - rnd()) * W) / demandPerWindow;
      now = Math.max(now, arrival);
    }
    let s = earliest(L, def, geo, now, c, def.perWindow);
    // answers that come back before this send are synced first; they may move it
    answers.sort((x, y) => x.at - y.at);
    while (reports && answers.length > 0 && answers[0].at <= s) {
      const r = answers.shift();
      now = Math.max(now, r.at);
      // what the caller knows the venue counted of its own: this request, and its answered requests of the same
      // fixed window that reported a lower count (the count of a fixed window only rises)
      let counted = r.cost;
      if (venue === 'fixed') {
        const mine = answered.get(r.windowEnd) ?? [];
        for (const a of mine) if (a.used < r.used) counted += a.cost;
        mine.push(r);
        answered.set(r.windowEnd, mine);
        if (answered.size > 3) answered.delete(answered.keys().next().value);
      }
      sync(L, def, geo, now, r.used, r.sentAt, counted, venue === 'fixed' ? { earliestMs: r.windowEnd, latestMs: r.windowEnd } : undefined);
      s = earliest(L, def, geo, now, c, def.perWindow);
    }
    now = s;
    if (now >= endMs) break;
    charge(L, def, geo, now, c, now);
    const at = now + rnd() * def.jitterMs;
    insert({ at, cost: c });
    if (reports) answers.push({ at: at + rnd() * def.jitterMs, used: countAt(at), sentAt: now, cost: c, windowEnd: windowEnd(at) });
  }
  // the venue's view: the most counted in one window, and the utilization over complete fixed windows of the run
  const all = arrivals.filter((x) => x.at < endMs);
  let most = 0;
  if (venue === 'fixed') {
    const tally = new Map();
    for (const x of all) tally.set(windowEnd(x.at), (tally.get(windowEnd(x.at)) ?? 0) + x.cost);
    most = Math.max(...tally.values());
  } else {
    let lo = 0;
    let n = 0;
    for (const x of all) {
      n += x.cost;
      while (all[lo].at <= x.at - W) n -= all[lo++].cost;
      if (n > most) most = n;
    }
  }
  let total = 0;
  let windows = 0;
  for (let w = W; w + W <= endMs; w += W, windows++) for (const x of all) if (x.at >= w && x.at < w + W) total += x.cost;
  return { most, utilization: total / (windows * def.perWindow), slots: L.slot.length - L.head, M: geo.M };
}

const CASES = [
  { name: '10 per 1 s, rolling', def: { perWindow: 10, windowMs: 1000, jitterMs: 50 }, venue: 'rolling', reports: false, seconds: 60, cost: 1, target: 0.88 },
  { name: '100 per 1 s, rolling', def: { perWindow: 100, windowMs: 1000, jitterMs: 50 }, venue: 'rolling', reports: false, seconds: 30, cost: 1, target: 0.95 },
  {
    name: '60 per 2 s, rolling (OKX)',
    def: { perWindow: 60, windowMs: 2000, jitterMs: 50 },
    venue: 'rolling',
    reports: false,
    seconds: 60,
    cost: 1,
    target: 0.88,
  },
  {
    name: '1000 per 2 s, rolling (OKX)',
    def: { perWindow: 1000, windowMs: 2000, jitterMs: 50 },
    venue: 'rolling',
    reports: false,
    seconds: 20,
    cost: 1,
    target: 0.95,
  },
  {
    name: '50 per 10 s, fixed, reports (Binance orders)',
    def: { perWindow: 50, windowMs: 10000, jitterMs: 50 },
    venue: 'fixed',
    reports: true,
    seconds: 120,
    cost: 1,
    target: 0.88,
  },
  {
    name: '6000 per 60 s, fixed, reports (Binance weight)',
    def: { perWindow: 6000, windowMs: 60000, jitterMs: 50 },
    venue: 'fixed',
    reports: true,
    seconds: 300,
    cost: (r) => [1, 2, 4, 5, 10, 20][Math.floor(r() * 6)],
    target: 0.94,
  },
  {
    name: '100 per 1 s, rolling, demand 1.5x spread',
    def: { perWindow: 100, windowMs: 1000, jitterMs: 50 },
    venue: 'rolling',
    reports: false,
    seconds: 60,
    cost: 1,
    demandPerWindow: 150,
    target: 0.88,
  },
  {
    name: '50 per 10 s, fixed, reports, demand 2x spread',
    def: { perWindow: 50, windowMs: 10000, jitterMs: 50 },
    venue: 'fixed',
    reports: true,
    seconds: 300,
    cost: 1,
    demandPerWindow: 100,
    target: 0.88,
  },
  {
    name: '6000 per 60 s, fixed, reports, demand 1.3x spread',
    def: { perWindow: 6000, windowMs: 60000, jitterMs: 50 },
    venue: 'fixed',
    reports: true,
    seconds: 300,
    cost: (r) => [1, 2, 4, 5, 10, 20][Math.floor(r() * 6)],
    demandPerWindow: 1100,
    target: 0.94,
  },
  {
    name: '6000 per 60 s, rolling, no reports',
    def: { perWindow: 6000, windowMs: 60000, jitterMs: 50 },
    venue: 'rolling',
    reports: false,
    seconds: 300,
    cost: 4,
    target: 0.94,
  },
];

console.log(`slot ledger prototype, K = ${K} slots per window`);
for (const c of CASES) {
  const r = simulate({ ...c, seed: 7 });
  const predicted = c.venue === 'rolling' ? predictedUtilization(c.def, K) : null;
  const safe = r.most <= c.def.perWindow + 1e-9;
  console.log(
    `${c.name.padEnd(48)} most ${String(r.most).padStart(5)}/${c.def.perWindow} ${safe ? 'safe' : 'OVER'}  utilization ${(100 * r.utilization).toFixed(1)}%` +
      `${predicted === null ? '' : ` (predicted ${(100 * predicted).toFixed(1)}%)`}  [target >= ${100 * c.target}%] ${r.utilization >= c.target ? 'ok' : 'MISSED'}  M ${r.M}, slots kept ${r.slots}`,
  );
}

// Cost per call of the arithmetic alone (the kit's share of an admission), in process.
function rate(fn, ms = 400) {
  let n = 0;
  const t0 = performance.now();
  let t = t0;
  while (t - t0 < ms) {
    for (let i = 0; i < 1000; i++) fn(n + i);
    n += 1000;
    t = performance.now();
  }
  return n / ((t - t0) / 1000);
}
for (const [name, def, cost] of [
  ['a 2000 per 30 s window', { perWindow: 2000, windowMs: 30000, jitterMs: 50 }, 1],
  ['a 6000 per 60 s window', { perWindow: 6000, windowMs: 60000, jitterMs: 50 }, 4],
]) {
  const geo = geometry(def, K);
  // filling: a fresh ledger filled to its limit, one admission per call; then probes on the full one
  let L = emptyLedger();
  let now = 0;
  let admitted = 0;
  const filling = rate(() => {
    if (admitted + cost > def.perWindow) {
      L = emptyLedger();
      admitted = 0;
    }
    const s = earliest(L, def, geo, now, cost, def.perWindow);
    if (s !== now) throw new Error('a filling window refused');
    charge(L, def, geo, s, cost, now);
    admitted += cost;
    now += 0.01;
  });
  for (L = emptyLedger(), admitted = 0; admitted + cost <= def.perWindow; admitted += cost) charge(L, def, geo, now, cost, now);
  const full = rate(() => {
    now += 0.01;
    earliest(L, def, geo, now, cost, def.perWindow);
  });
  console.log(
    `in process, ${name}: admissions while filling ${(filling / 1e6).toFixed(2)} M/s, probes on the full window ${(full / 1e6).toFixed(2)} M/s [target >= 1 M/s]`,
  );
}
