import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** A `redis-server` process the tests started on a loopback port (never 6379). */
export interface RedisServer {
  readonly port: number;
  readonly host: '127.0.0.1';
  /** `redis://127.0.0.1:<port>`, for `createRateLimiter({ url })` and other clients. */
  readonly url: string;
  /** SIGSTOP: the server keeps its sockets but answers nothing. */
  pause(): void;
  /** SIGCONT after {@link RedisServer.pause}. */
  resume(): void;
  /** SIGKILL, then waits for the process to exit. */
  kill(): Promise<void>;
  /** Starts a fresh process on the same port (no persistence: every key is gone). */
  restart(): Promise<void>;
  /** Runs a command through `redis-cli` and returns its output. */
  cli(...args: string[]): string;
  stop(): Promise<void>;
}

/** Three masters joined with `redis-cli --cluster create`. */
export interface RedisClusterServers {
  readonly nodes: readonly RedisServer[];
  readonly startupNodes: readonly { host: string; port: number }[];
  pause(): void;
  resume(): void;
  stop(): Promise<void>;
}

const serverBin = process.env['REDIS_SERVER_BIN'] ?? 'redis-server';
const cliBin = process.env['REDIS_CLI_BIN'] ?? 'redis-cli';

/** Throws a clear message when `redis-server` or `redis-cli` is not installed. */
export function assertRedisInstalled(): void {
  for (const bin of [serverBin, cliBin]) {
    const probe = spawnSync(bin, ['--version'], { encoding: 'utf8' });
    if (probe.error !== undefined || probe.status !== 0) {
      throw new Error(
        `${bin} not found: the Redis tests start their own servers. Install it (apt-get install redis-server, ` +
          `or run scripts/ensure-redis.sh at the repository root) or set REDIS_SERVER_BIN / REDIS_CLI_BIN.`,
      );
    }
  }
}

async function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = createServer();
    srv.once('error', () => resolve(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => resolve(true)));
  });
}

/** A free loopback port whose cluster-bus twin (port + 10000) is free too; never 6379. */
export async function freePort(withBus = false): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 30_000);
    if (port === 6379 || port === 16379) continue;
    if (!(await portIsFree(port))) continue;
    if (withBus && !(await portIsFree(port + 10_000))) continue;
    return port;
  }
  throw new Error('no free loopback port found');
}

async function waitForPing(port: number, timeoutMs = 10_000): Promise<void> {
  const started = Date.now();
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ host: '127.0.0.1', port });
      let data = '';
      socket.setTimeout(500);
      socket.on('connect', () => socket.write('PING\r\n'));
      socket.on('data', (chunk) => {
        data += chunk.toString();
        if (data.includes('\r\n')) {
          socket.destroy();
          resolve(data.startsWith('+PONG'));
        }
      });
      socket.on('timeout', () => {
        socket.destroy();
        resolve(false);
      });
      socket.on('error', () => resolve(false));
    });
    if (ok) return;
    if (Date.now() - started > timeoutMs) throw new Error(`redis-server on port ${port} did not answer PING`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const children = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

/** Starts `redis-server` on a free loopback port, without persistence. */
export async function startRedisServer(options: { cluster?: boolean } = {}): Promise<RedisServer> {
  assertRedisInstalled();
  const cluster = options.cluster === true;
  const dir = mkdtempSync(join(tmpdir(), 'rrl-redis-'));
  let port = 0;
  let child: ChildProcess | undefined;

  const launch = async (): Promise<void> => {
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir];
    if (cluster) {
      args.push('--cluster-enabled', 'yes', '--cluster-config-file', join(dir, 'nodes.conf'));
      args.push('--cluster-node-timeout', '15000');
    }
    const proc = spawn(serverBin, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    children.add(proc);
    proc.once('exit', () => children.delete(proc));
    child = proc;
    await waitForPing(port);
  };

  for (let attempt = 0; ; attempt++) {
    port = await freePort(cluster);
    try {
      await launch();
      break;
    } catch (error) {
      child?.kill('SIGKILL');
      if (attempt >= 4) throw error;
    }
  }

  const kill = async (): Promise<void> => {
    const proc = child;
    if (proc === undefined || proc.exitCode !== null || proc.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      proc.once('exit', () => resolve());
      proc.kill('SIGCONT');
      proc.kill('SIGKILL');
    });
  };

  return {
    port,
    host: '127.0.0.1',
    url: `redis://127.0.0.1:${port}`,
    pause: () => child?.kill('SIGSTOP'),
    resume: () => child?.kill('SIGCONT'),
    kill,
    restart: async () => {
      await kill();
      await launch();
    },
    cli: (...args: string[]) => {
      const out = spawnSync(cliBin, ['-h', '127.0.0.1', '-p', String(port), ...args], { encoding: 'utf8' });
      if (out.status !== 0) throw new Error(`redis-cli ${args.join(' ')} failed: ${out.stderr}`);
      return out.stdout;
    },
    stop: async () => {
      await kill();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Starts three cluster-enabled servers and joins them as three masters (no replicas). */
export async function startRedisCluster(): Promise<RedisClusterServers> {
  const nodes: RedisServer[] = [];
  try {
    for (let i = 0; i < 3; i++) nodes.push(await startRedisServer({ cluster: true }));
    const create = spawnSync(cliBin, ['--cluster', 'create', ...nodes.map((n) => `127.0.0.1:${n.port}`), '--cluster-replicas', '0', '--cluster-yes'], {
      encoding: 'utf8',
    });
    if (create.status !== 0) throw new Error(`redis-cli --cluster create failed: ${create.stdout}${create.stderr}`);
    const started = Date.now();
    for (;;) {
      const states = nodes.map((n) => n.cli('CLUSTER', 'INFO'));
      if (states.every((s) => s.includes('cluster_state:ok'))) break;
      if (Date.now() - started > 20_000) throw new Error('the test cluster never reached cluster_state:ok');
      await new Promise((r) => setTimeout(r, 100));
    }
  } catch (error) {
    await Promise.all(nodes.map((n) => n.stop()));
    throw error;
  }
  return {
    nodes,
    startupNodes: nodes.map((n) => ({ host: n.host, port: n.port })),
    pause: () => nodes.forEach((n) => n.pause()),
    resume: () => nodes.forEach((n) => n.resume()),
    stop: async () => {
      await Promise.all(nodes.map((n) => n.stop()));
    },
  };
}
