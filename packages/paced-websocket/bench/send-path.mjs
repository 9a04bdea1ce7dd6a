// What the send path costs per message, on an in-process limiter and a loopback server: a Binance WebSocket API
// request admitted at once (one window limit, the REST weight), and a send that waited, which asks its window
// limits whether they overfilled meanwhile (`waitUntilClear`: one `borrowed` per window limit). CPU time per
// message is the figure to compare (the wall time follows the cores the process gets on a loaded machine).
// Run after the build: pnpm --filter @core/paced-websocket bench. PACED_WS_MODULE=<path of another build's
// dist/index.js> measures that build instead, to compare.
import { createDefaultRateLimiter } from '@core/default-rate-limiter';
import { waitUntilClear } from '@core/paced-fetch';
import { WebSocketServer } from 'ws';

const { CapRegistry, openPacedWebSocket } = await import(process.env.PACED_WS_MODULE ?? '../dist/index.js');
const SENDS = Number(process.env.BENCH_SENDS ?? 2_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

const server = new WebSocketServer({ host: '127.0.0.1', port: 0 });
await new Promise((resolve) => server.once('listening', resolve));
const url = `ws://127.0.0.1:${server.address().port}`;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** CPU and wall µs per message over `n` messages sent one after another on a fresh limiter and connection. */
async function sendRound(n) {
  const limiter = createDefaultRateLimiter();
  const ws = await openPacedWebSocket({
    venue: 'binance',
    endpoint: 'ws-api',
    url,
    identity: { credential: null },
    limiter,
    reconnect: false,
    caps: new CapRegistry(),
  });
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < n; i++) await ws.send({ id: i, method: 'time' });
  const wall = performance.now() - started;
  const u = process.cpuUsage(cpu);
  await ws.close();
  await limiter.close();
  return { cpu: (u.user + u.system) / n, wall: (wall * 1000) / n };
}

/** CPU µs per `waitUntilClear` on a window limit that is within its limit (the check a send that waited makes). */
async function clearRound(n) {
  const limiter = createDefaultRateLimiter();
  const checks = [
    { key: { venue: 'binance-spot', credential: null, axis: 'request_weight' }, limit: { perWindow: 6000, windowMs: 60_000, jitterMs: 100 }, cost: 1 },
  ];
  await limiter.checkRates(checks);
  const cpu = process.cpuUsage();
  for (let i = 0; i < n; i++) await waitUntilClear(limiter, checks, 0, () => Promise.reject(new Error('within its limit: never booked again')));
  const u = process.cpuUsage(cpu);
  await limiter.close();
  return (u.user + u.system) / n;
}

await sendRound(SENDS); // warm up
const sends = [];
const clears = [];
for (let r = 0; r < ROUNDS; r++) {
  sends.push(await sendRound(SENDS));
  clears.push(await clearRound(SENDS));
}
console.log(
  `send, admitted at once: ${median(sends.map((s) => s.cpu)).toFixed(1)} µs CPU, ${median(sends.map((s) => s.wall)).toFixed(1)} µs wall per message (median of ${ROUNDS} rounds of ${SENDS})`,
);
console.log(`a send that waited, its windows asked again: +${median(clears).toFixed(2)} µs CPU per window limit, in process (on Redis: one round trip)`);
server.close();
