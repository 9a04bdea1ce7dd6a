// Server CPU per call (INFO commandstats) of the slot ledger's Lua prototype against a bare one-key GCRA script,
// in one run on a redis-server of its own. Usage: node packages/rate-limit-kit/prototype/lua-bench.mjs [--K 64]
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';

const require = createRequire(new URL('../../redis-rate-limiter/package.json', import.meta.url));
const Redis = require('ioredis');
const args = process.argv.slice(2);
const K = args.includes('--K') ? Number(args[args.indexOf('--K') + 1]) : 64;
const IN_FLIGHT = 64;
const CALLS = 20_000;

const BARE_GCRA = `
local t = redis.call('TIME')
local now = (tonumber(t[1]) - 1767225600) * 1000 + tonumber(t[2]) / 1000
local emission = 1000 / tonumber(ARGV[2])
local tau = tonumber(ARGV[1]) * emission
local tat = tonumber(redis.call('GET', KEYS[1]) or now)
if tat < now then tat = now end
local newTat = tat + tonumber(ARGV[3]) * emission
if newTat - now > tau then return 0 end
redis.call('SET', KEYS[1], newTat, 'PX', math.max(1, math.ceil(newTat - now)))
return 1
`;

const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

async function cpuPerCall(redis, name, run) {
  await redis.config('RESETSTAT');
  let next = 0;
  const worker = async () => {
    while (next < CALLS) await run(next++);
  };
  await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
  const stats = await redis.info('commandstats');
  const m = /cmdstat_evalsha:calls=(\d+),usec=(\d+)/.exec(stats);
  const us = Number(m[2]) / Number(m[1]);
  console.log(`${name.padEnd(56)} ${us.toFixed(1)} µs per call`);
  return us;
}

const port = await freePort();
const server = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
try {
  const redis = new Redis({ port, host: '127.0.0.1', lazyConnect: true });
  for (let i = 0; i < 50; i++) {
    try {
      await redis.connect();
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  redis.defineCommand('gcra', { numberOfKeys: 1, lua: BARE_GCRA });
  const slots = readFileSync(new URL('slot-window.lua', import.meta.url), 'utf8');
  for (let k = 1; k <= 4; k++) redis.defineCommand(`win${k}`, { numberOfKeys: k, lua: slots });
  console.log(`slot ledger, Lua prototype, K = ${K}, ${IN_FLIGHT} in flight, ${CALLS} calls each`);
  const token = await cpuPerCall(redis, 'bare one-key GCRA script (admits everything)', (i) => redis.gcra(`g:{${i % 1000}}`, '1000000000', '1000000000', '1'));
  const win = (keys, defs, mode = 1, budget = 0) =>
    redis[`win${keys.length}`](
      ...keys,
      '',
      String(mode),
      String(budget),
      String(K),
      ...defs.flatMap((d) => [d.perWindow, d.windowMs, d.jitterMs, d.cost].map(String)),
    );
  const FILL = { perWindow: 1e9, windowMs: 60000, jitterMs: 50, cost: 1 };
  const results = [];
  results.push([
    'a window that admits everything, 1000 keys',
    await cpuPerCall(redis, 'a window that admits everything, 1000 keys', (i) => win([`a:{${i % 1000}}`], [FILL])),
  ]);
  const SIX = { perWindow: 6000, windowMs: 60000, jitterMs: 50, cost: 1 };
  results.push([
    'filling a 6000 per 60 s window',
    await cpuPerCall(redis, 'filling a 6000 per 60 s window (3 windows of it)', (i) => win([`f:{${Math.floor(i / 6000)}}`], [SIX])),
  ]);
  results.push(['probing that full window', await cpuPerCall(redis, 'probing that full window', () => win(['f:{0}'], [SIX]))]);
  const HUNDRED = { perWindow: 100, windowMs: 1000, jitterMs: 50, cost: 1 };
  results.push([
    'booking ahead on 100 per 1 s',
    await cpuPerCall(redis, 'booking ahead on 100 per 1 s (budget 10 s)', (i) => win([`b:{${Math.floor(i / 1000)}}`], [HUNDRED], 3, 10_000)),
  ]);
  // Binance spot's order checks: orders per 10 s and per day, request weight per minute, raw requests per 5 minutes
  const ORDER = [
    { perWindow: 100, windowMs: 10_000, jitterMs: 50, cost: 1 },
    { perWindow: 200_000, windowMs: 86_400_000, jitterMs: 50, cost: 1 },
    { perWindow: 6000, windowMs: 60_000, jitterMs: 50, cost: 1 },
    { perWindow: 61_000, windowMs: 300_000, jitterMs: 50, cost: 1 },
  ];
  results.push([
    "Binance spot's order checks (4 windows)",
    await cpuPerCall(redis, "Binance spot's order checks (4 windows in one call)", (i) =>
      win(
        ['o:{x}:a', 'o:{x}:b', 'o:{x}:c', 'o:{x}:d'].map((k) => `${k}${Math.floor(i / 100)}`),
        ORDER,
      ),
    ),
  ]);
  console.log(`\nwindow CPU per call against the token bucket's (target: at most 2x):`);
  for (const [name, us] of results) console.log(`  ${name.padEnd(54)} ${(us / token).toFixed(2)}x ${us / token <= 2 ? 'ok' : 'MISSED'}`);
  redis.disconnect();
} finally {
  server.kill('SIGTERM');
}
