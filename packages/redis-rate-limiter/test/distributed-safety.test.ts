import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { checkRlA6, epochTolerance, type Admission } from './support/rl-a6.js';
import { startRedisServer, type RedisServer } from './support/redis-servers.js';

const PROCESSES = 4;
const LOOPS = 16;
const SECONDS = Number(process.env['SAFETY_SECONDS'] ?? 10);
const worker = fileURLToPath(new URL('./support/safety-worker.mjs', import.meta.url));
const LIMITS = { ip: { capacity: 20, refillPerSec: 400 }, orders: { capacity: 10, refillPerSec: 250 } } as const;

interface WorkerReport {
  id: number;
  log: { ip: [number, number][]; orders: [number, number][] };
  counts: { ok: number; delay: number; error: number; aborted: number; errors: Record<string, number> };
}

let server: RedisServer;
beforeAll(async () => {
  server = await startRedisServer();
});
afterAll(async () => {
  await server?.stop();
});

it(
  `RL-A6 holds across ${PROCESSES} processes x ${LOOPS} loops for ${SECONDS} s on shared buckets (probes, multi-bucket, bookings, cancellations; ioredis and node-redis)`,
  async () => {
    if (!existsSync(fileURLToPath(new URL('../dist/index.js', import.meta.url)))) {
      throw new Error('build the package first (pnpm --filter @core/redis-rate-limiter build): the workers load dist/');
    }
    const ready: ChildProcess[] = [];
    const reports = await Promise.all(
      Array.from(
        { length: PROCESSES },
        (_, id) =>
          new Promise<WorkerReport>((resolve, reject) => {
            const child = fork(worker, [String(server.port), String(SECONDS), String(LOOPS), String(id)], { stdio: 'inherit' });
            let report: WorkerReport | undefined;
            child.on('message', (m) => {
              if (typeof m === 'object' && m !== null && 'ready' in m) {
                ready.push(child);
                if (ready.length === PROCESSES) for (const c of ready) c.send('go');
              } else report = m as WorkerReport;
            });
            child.on('error', reject);
            child.on('exit', (code) => (report !== undefined ? resolve(report) : reject(new Error(`worker ${id} exited with ${code} and no report`))));
          }),
      ),
    );
    const lines: string[] = [];
    for (const name of ['ip', 'orders'] as const) {
      const log: Admission[] = reports.flatMap((r) => r.log[name].map(([t, cost]) => ({ t, cost })));
      const { capacity, refillPerSec } = LIMITS[name];
      const report = checkRlA6(log, capacity, refillPerSec);
      const utilization = report.admittedCost / report.wholeBound;
      lines.push(
        `${name}${name === 'ip' ? ' (the saturated bucket)' : ' (not the bottleneck)'}: ${log.length} admissions from ${new Set(reports.filter((r) => r[`log`][name].length > 0).map((r) => r.id)).size} processes, ` +
          `cost ${report.admittedCost.toFixed(1)} of the bound ${report.wholeBound.toFixed(1)} (utilization ${(utilization * 100).toFixed(2)}%), ` +
          `worst window excess ${report.worstExcess.toExponential(2)} over [${report.worstWindow.map((t) => t.toFixed(3)).join(', ')}]`,
      );
      expect(report.worstExcess, `RL-A6 on ${name}`).toBeLessThanOrEqual(epochTolerance(refillPerSec));
      expect(log.length).toBeGreaterThan(0);
    }
    const totals = reports.reduce(
      (acc, r) => ({ ok: acc.ok + r.counts.ok, delay: acc.delay + r.counts.delay, error: acc.error + r.counts.error, aborted: acc.aborted + r.counts.aborted }),
      { ok: 0, delay: 0, error: 0, aborted: 0 },
    );
    lines.push(`answers: ${JSON.stringify(totals)}; errors: ${JSON.stringify(reports.map((r) => r.counts.errors))}`);
    console.log(`distributed safety (${PROCESSES} processes x ${LOOPS} loops, ${SECONDS} s):\n  ${lines.join('\n  ')}`);
    // every process was admitted something: the buckets really were shared, not partitioned
    for (const r of reports) expect(r.counts.ok).toBeGreaterThan(0);
  },
  (SECONDS + 60) * 1000,
);
