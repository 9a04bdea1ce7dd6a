import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, createConnection } from 'node:net';

/** A redis-server this test started on a free loopback port (never 6379, never someone else's). */
export interface TestRedis {
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address();
      const port = typeof addr === 'object' && addr !== null ? addr.port : 0;
      s.close(() => resolve(port));
    });
  });
}

async function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const c = createConnection({ port, host: '127.0.0.1' }, () => c.write('PING\r\n'));
    c.setTimeout(500, () => {
      c.destroy();
      resolve(false);
    });
    c.once('data', (d) => {
      c.destroy();
      resolve(d.toString().startsWith('+PONG'));
    });
    c.once('error', () => resolve(false));
  });
}

/** Is `redis-server` on PATH (or in REDIS_SERVER_BIN)? */
export function redisServerBin(): string {
  return process.env['REDIS_SERVER_BIN'] ?? 'redis-server';
}

/** Starts redis-server without persistence on a free loopback port and waits until it answers. */
export async function startTestRedis(): Promise<TestRedis> {
  const port = await freePort();
  const child: ChildProcess = spawn(redisServerBin(), ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  for (let i = 0; i < 100; i++) {
    if (await answersPing(port)) {
      return {
        url: `redis://127.0.0.1:${port}`,
        port,
        async stop(): Promise<void> {
          if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
          await exited;
        },
      };
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill('SIGKILL');
  throw new Error(`redis-server did not answer on port ${port}`);
}
