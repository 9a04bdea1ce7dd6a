import { fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { EmulatorStats } from '@core/venue-emulator';
import type { EmulatorReply, EmulatorRequest } from './emulator-child.js';

/** The demo's venue, running in a process of its own. */
export interface EmulatorProcess {
  readonly url: string;
  readonly wsUrl: string | undefined;
  /** The latest stats received (refreshed every 200 ms), for the progress line. */
  latest(): EmulatorStats | undefined;
  /** The stats as of now. */
  stats(): Promise<EmulatorStats>;
  close(): Promise<void>;
}

function childScript(): string {
  for (const rel of ['./emulator-child.js', '../dist/emulator-child.js']) {
    const path = fileURLToPath(new URL(rel, import.meta.url));
    if (existsSync(path)) return path;
  }
  throw new Error('the demo venue script dist/emulator-child.js is missing: build @core/cli first (pnpm --filter @core/cli build)');
}

/**
 * Starts the demo's emulated venue in a child process, so that it counts each request when it arrives
 * on an event loop of its own: in the clients' process, a busy loop (many workers, WebSocket traffic)
 * would delay the venue's counting as no real venue is delayed, and the judge would not be independent.
 *
 * @param failShare - the share of requests whose charges depend on their outcome (orders) the venue fails (the emulator's `failShare`).
 * @throws Error when the process cannot start the emulator.
 */
export async function startEmulatorProcess(venue: string, dropAfterMs?: number, failShare?: number): Promise<EmulatorProcess> {
  const child = fork(childScript(), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const ask = (m: EmulatorRequest): void => {
    if (child.connected) child.send(m);
  };
  const ready = await new Promise<{ url: string; wsUrl?: string }>((resolve, reject) => {
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the demo venue process exited (code ${code ?? 'none'}) before it was ready`)));
    child.on('message', (m: EmulatorReply) => {
      if (m.type === 'ready') resolve(m);
      if (m.type === 'failed') reject(new Error(`the demo venue could not start: ${m.message}`));
    });
    ask({ type: 'start', venue, ...(dropAfterMs === undefined ? {} : { dropAfterMs }), ...(failShare === undefined ? {} : { failShare }) });
  });
  child.removeAllListeners('exit');
  child.removeAllListeners('error');
  let latest: EmulatorStats | undefined;
  let nextId = 1;
  const pending = new Map<number, (s: EmulatorStats) => void>();
  child.on('message', (m: EmulatorReply) => {
    if (m.type !== 'stats') return;
    latest = m.stats;
    pending.get(m.id)?.(m.stats);
    pending.delete(m.id);
  });
  const stats = (): Promise<EmulatorStats> =>
    new Promise((resolve, reject) => {
      if (!child.connected) return reject(new Error('the demo venue process is gone'));
      const id = nextId++;
      pending.set(id, resolve);
      ask({ type: 'stats', id });
    });
  const poll = setInterval(() => void stats().catch(() => undefined), 200);
  return {
    url: ready.url,
    wsUrl: ready.wsUrl,
    latest: () => latest,
    stats,
    close: async () => {
      clearInterval(poll);
      if (child.exitCode !== null || child.signalCode !== null) return;
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        ask({ type: 'close' });
        setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
      });
    },
  };
}
