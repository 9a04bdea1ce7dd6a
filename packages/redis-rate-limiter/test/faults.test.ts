import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Decision } from '@core/rate-limit-contract';
import { createRedisRateLimiter, type RedisRateLimiter } from '../src/index.js';
import { ioredisClient, nodeRedisClient, type TestClient } from './support/clients.js';
import { startRedisServer, type RedisServer } from './support/redis-servers.js';
import { checkRlA6, epochTolerance } from './support/rl-a6.js';

// Real time and the server's TIME here (the thing under test is the store going away); bounds are
// generous and no test asserts a duration.

let server: RedisServer;
let io: TestClient;
let n = 0;
beforeAll(async () => {
  server = await startRedisServer();
  io = await ioredisClient(server.port);
});
afterAll(async () => {
  server?.resume();
  await io?.close();
  await server?.stop();
});

const LIMIT = { capacity: 10, refillPerSec: 200 };
const KEY = { venue: 'faulty', credential: 'key-1', axis: 'request' };
const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

interface Answer {
  readonly issued: number;
  readonly answered: number;
  readonly decision: Decision;
}

/** Eight loops of probes on one bucket until stopped; every answer is logged with local times. */
function hammer(limiter: RedisRateLimiter): { answers: Answer[]; stop(): Promise<void> } {
  const answers: Answer[] = [];
  let running = true;
  const loop = async (): Promise<void> => {
    while (running) {
      const issued = Date.now();
      const decision = await limiter.checkRate(KEY, LIMIT, 1);
      answers.push({ issued, answered: Date.now(), decision });
      if (decision.kind === 'delay') await sleep(Math.min(decision.retryAfterMs, 10));
      else if (decision.kind === 'error') await sleep(10);
    }
  };
  const loops = Array.from({ length: 8 }, () => loop());
  return {
    answers,
    stop: async () => {
      running = false;
      await Promise.all(loops);
    },
  };
}

/** The server's clock in ms (the limiter's clock without an injected one). */
function serverTime(): number {
  const [s, us] = server.cli('TIME').trim().split('\n').map(Number);
  return (s as number) * 1000 + (us as number) / 1000;
}

function admissions(answers: readonly Answer[], from: number, to: number): { t: number; cost: number }[] {
  return answers.flatMap((a) =>
    a.decision.kind === 'ok' && a.decision.sendAtMs > from && a.decision.sendAtMs < to ? [{ t: a.decision.sendAtMs, cost: 1 }] : [],
  );
}

function expectRlA6(log: { t: number; cost: number }[], what: string): void {
  expect(log.length, `${what}: something was admitted`).toBeGreaterThan(0);
  expect(checkRlA6(log, LIMIT.capacity, LIMIT.refillPerSec).worstExcess, `RL-A6 ${what}`).toBeLessThanOrEqual(epochTolerance(LIMIT.refillPerSec));
}

async function servesAgain(limiter: RedisRateLimiter, from: number, answers: readonly Answer[]): Promise<void> {
  await expect.poll(() => answers.some((a) => a.issued > from && a.decision.kind === 'ok'), { timeout: 15_000, interval: 50 }).toBe(true);
  void limiter;
}

function limiter(timeoutMs = 200, client: TestClient = io, extra: { recordBufferSize?: number } = {}): RedisRateLimiter {
  return createRedisRateLimiter({ redis: client.redis, prefix: `f${n++}:`, timeoutMs, recordRetryMs: 50, ...extra });
}

describe('faults under load', () => {
  it('the server killed and restarted: backend_unavailable meanwhile, never ok; the same limiter serves again within RL-A6', async () => {
    const l = limiter();
    const load = hammer(l);
    await expect.poll(() => load.answers.filter((a) => a.decision.kind === 'ok').length, { timeout: 10_000 }).toBeGreaterThan(20);
    const beforeKill = serverTime();
    await server.kill();
    const downFrom = Date.now();
    await expect.poll(() => load.answers.filter((a) => a.issued > downFrom).length, { timeout: 10_000 }).toBeGreaterThan(20);
    const downUntil = Date.now();
    await server.restart();
    const afterRestart = serverTime();
    await servesAgain(l, afterRestart, load.answers);
    await expect.poll(() => admissions(load.answers, afterRestart, Infinity).length, { timeout: 10_000 }).toBeGreaterThan(20);
    await load.stop();

    const duringOutage = load.answers.filter((a) => a.issued >= downFrom && a.answered <= downUntil);
    expect(duringOutage.length).toBeGreaterThan(0);
    for (const a of duringOutage) expect(a.decision).toMatchObject({ kind: 'error', error: { code: 'backend_unavailable' } });
    expectRlA6(admissions(load.answers, -Infinity, beforeKill), 'before the kill');
    expectRlA6(admissions(load.answers, afterRestart, Infinity), 'after the restart (against what the restarted store knows)');
    await l.close();
  });

  it('FUNCTION FLUSH (and SCRIPT FLUSH) under load is transparent: no error, and RL-A6 holds throughout', async () => {
    const l = limiter(1_000);
    const load = hammer(l);
    for (let i = 0; i < 5; i++) {
      const before = load.answers.length;
      server.cli(i % 2 === 0 ? 'FUNCTION' : 'SCRIPT', 'FLUSH');
      await expect.poll(() => load.answers.length, { timeout: 10_000 }).toBeGreaterThan(before + 20);
    }
    await load.stop();
    const errors = load.answers.filter((a) => a.decision.kind === 'error');
    expect(errors).toEqual([]);
    expectRlA6(admissions(load.answers, -Infinity, Infinity), 'across the flushes');
    await l.close();
  });

  it('a server paused with SIGSTOP: every answer meanwhile is backend_unavailable (timeouts), then it serves again after SIGCONT', async () => {
    const l = limiter(150);
    const load = hammer(l);
    await expect.poll(() => load.answers.filter((a) => a.decision.kind === 'ok').length, { timeout: 10_000 }).toBeGreaterThan(10);
    server.pause();
    const pausedAt = Date.now();
    await expect.poll(() => load.answers.filter((a) => a.issued > pausedAt).length, { timeout: 10_000 }).toBeGreaterThan(16);
    const resumedAt = Date.now();
    server.resume();
    const afterResume = serverTime();
    await servesAgain(l, resumedAt, load.answers);
    await load.stop();
    const whilePaused = load.answers.filter((a) => a.issued > pausedAt && a.answered < resumedAt);
    expect(whilePaused.length).toBeGreaterThan(0);
    for (const a of whilePaused) expect(a.decision).toMatchObject({ kind: 'error', error: { code: 'backend_unavailable' } });
    // timed-out calls may still run once the server resumes: they only lower what is admitted
    expectRlA6(admissions(load.answers, -Infinity, Infinity), 'across the pause');
    expect(admissions(load.answers, afterResume, Infinity).length).toBeGreaterThan(0);
    await l.close();
  });

  it('FLUSHALL under load: the limiter serves on from empty buckets, within RL-A6 on each side', async () => {
    const l = limiter(1_000);
    const load = hammer(l);
    await expect.poll(() => load.answers.filter((a) => a.decision.kind === 'ok').length, { timeout: 10_000 }).toBeGreaterThan(20);
    const before = serverTime();
    server.cli('FLUSHALL');
    const after = serverTime();
    await expect.poll(() => admissions(load.answers, after, Infinity).length, { timeout: 10_000 }).toBeGreaterThan(20);
    await load.stop();
    // a slow FLUSHALL may time calls out: those answer backend_unavailable, nothing else
    for (const a of load.answers) if (a.decision.kind === 'error') expect(a.decision.error.code).toBe('backend_unavailable');
    expectRlA6(admissions(load.answers, -Infinity, before), 'before FLUSHALL');
    expectRlA6(admissions(load.answers, after, Infinity), 'after FLUSHALL');
    await l.close();
  });
});

describe('record while Redis is away (RL-R1)', () => {
  it('never throws, buffers (bounded, the oldest dropped and counted) and flushes when Redis answers again', async () => {
    const nr = await nodeRedisClient(server.port);
    try {
      const l = limiter(100, nr, { recordBufferSize: 5 });
      const slow = { capacity: 1000, refillPerSec: 0.001 };
      const key = { venue: 'faulty', credential: null, axis: 'recorded' };
      expect((await l.checkRate(key, slow, 1)).kind).toBe('ok');
      server.pause();
      try {
        for (let i = 0; i < 20; i++) expect(() => l.record(key, 2)).not.toThrow();
        await expect.poll(() => l.recordStats().bufferedTotal, { timeout: 10_000 }).toBe(20);
        expect(l.recordStats()).toMatchObject({ buffered: 5, dropped: 15 });
        const whilePaused = await l.checkRate(key, slow, 1);
        expect(whilePaused).toMatchObject({ kind: 'error', error: { code: 'backend_unavailable' } });
      } finally {
        server.resume();
      }
      await expect.poll(() => l.recordStats(), { timeout: 15_000 }).toMatchObject({ buffered: 0, flushed: 5 });
      // what the paused server queued may run too: records only ever add debt
      const borrowed = await l.borrowed(key);
      expect(typeof borrowed).toBe('number');
      expect(borrowed as number).toBeGreaterThanOrEqual(1 + 5 * 2 - 1e-6);
      await l.close();
    } finally {
      await nr.close();
    }
  });
});
