// Packages that install like any other: packs every package with `pnpm pack` (which rewrites the
// `workspace:^` ranges to versions), installs the tarballs with plain npm into a fresh project outside the
// workspace (our packages only from the tarballs: the @core scope points at a registry that does not exist;
// public dependencies come from the npm registry), then compiles and runs every package README's examples there:
// each ```ts block (not `fragment`) is compiled with tsc and run with node, and each ```sh run block's commands
// are run in the example's folder. Examples that call a venue reach an emulated one (a preload routes the venues'
// hosts, @core/paced-websocket's WebSocket URLs and ccxt's undici requests, to @core/venue-emulator, installed from its tarball); Redis examples get a server and a 3-node Cluster on
// free loopback ports (REDIS_URL, REDIS_CLUSTER_URL). Run after `pnpm run build`:
//   node --test scripts/pack-install.test.mjs
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, createConnection } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const root = resolve(new URL('..', import.meta.url).pathname);
const packagesDir = join(root, 'packages');
const packages = readdirSync(packagesDir).filter((d) => existsSync(join(packagesDir, d, 'package.json')));
const work = mkdtempSync(join(tmpdir(), 'exlimits-install-'));
const tarballs = join(work, 'tarballs');
const app = join(work, 'app');
const KEEP = process.env['KEEP_INSTALL_DIR'] === '1';

/** The public packages the examples need beside ours. */
const PUBLIC = [
  'typescript@~5.9.3',
  'vitest@~4.1.9',
  '@types/node@^20.19.43',
  'ioredis@^5.9.2',
  'redis@^5.9.0',
  '@opentelemetry/api@~1.9.1',
  '@opentelemetry/sdk-metrics@2.12.0',
  '@opentelemetry/exporter-prometheus@0.223.0',
  'ccxt@4.5.84',
];

const cleanups = [];

async function sh(cmd, args, options = {}) {
  try {
    return await run(cmd, args, { maxBuffer: 64 * 1024 * 1024, ...options });
  } catch (e) {
    throw new Error(`${cmd} ${args.join(' ')} failed (${e.code ?? e.signal}):\n${e.stdout ?? ''}\n${e.stderr ?? ''}`);
  }
}

async function freePort(clusterBus = false) {
  for (;;) {
    const port = await new Promise((ok, fail) => {
      const s = createServer();
      s.once('error', fail);
      s.listen(0, '127.0.0.1', () => {
        const p = s.address().port;
        s.close(() => ok(p));
      });
    });
    if (port === 6379 || (clusterBus && port + 10000 > 65535)) continue;
    if (!clusterBus) return port;
    const busFree = await new Promise((ok) => {
      const s = createServer();
      s.once('error', () => ok(false));
      s.listen(port + 10000, '127.0.0.1', () => s.close(() => ok(true)));
    });
    if (busFree) return port;
  }
}

function answersPing(port) {
  return new Promise((ok) => {
    const c = createConnection({ port, host: '127.0.0.1' }, () => c.write('PING\r\n'));
    c.setTimeout(500, () => (c.destroy(), ok(false)));
    c.once('data', (d) => (c.destroy(), ok(d.toString().startsWith('+PONG'))));
    c.once('error', () => ok(false));
  });
}

/** A redis-server this test owns, on a free loopback port (never 6379). */
async function startRedis(cluster = false) {
  const port = await freePort(cluster);
  const dir = mkdtempSync(join(work, 'redis-'));
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir];
  if (cluster) args.push('--cluster-enabled', 'yes', '--cluster-config-file', join(dir, 'nodes.conf'));
  const child = spawn(process.env['REDIS_SERVER_BIN'] ?? 'redis-server', args, { stdio: 'ignore' });
  cleanups.push(() => child.kill('SIGKILL'));
  for (let i = 0; i < 100; i++) {
    if (await answersPing(port)) return port;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`redis-server did not answer on port ${port}`);
}

async function startCluster() {
  const ports = [await startRedis(true), await startRedis(true), await startRedis(true)];
  const cli = process.env['REDIS_CLI_BIN'] ?? 'redis-cli';
  const create = spawnSync(cli, ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '0', '--cluster-yes'], {
    encoding: 'utf8',
  });
  if (create.status !== 0) throw new Error(`redis-cli --cluster create failed: ${create.stdout}${create.stderr}`);
  for (const started = Date.now(); ; ) {
    const ok = ports.every((p) => spawnSync(cli, ['-p', String(p), 'CLUSTER', 'INFO'], { encoding: 'utf8' }).stdout.includes('cluster_state:ok'));
    if (ok) return ports[0];
    if (Date.now() - started > 20_000) throw new Error('the cluster never reached cluster_state:ok');
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The README's blocks: language, info (`fragment`, `run`, `file=NAME`, `installed`), code. */
function blocksOf(readme) {
  return [...readme.matchAll(/```(\w+)([^\n]*)\n([\s\S]*?)```/g)].map((m) => ({ lang: m[1], info: m[2], code: m[3], file: /file=(\S+)/.exec(m[2])?.[1] }));
}

const examples = new Map(); // package -> { dir, scripts: [file], commands: [line] }

before(
  async () => {
    mkdirSync(tarballs, { recursive: true });
    mkdirSync(app, { recursive: true });
    // 1. pack every package (built by `pnpm run build` before this test)
    for (const p of packages) {
      const dir = join(packagesDir, p);
      assert.ok(existsSync(join(dir, 'dist')), `packages/${p} is not built: run pnpm run build first`);
      await sh('pnpm', ['pack', '--pack-destination', tarballs], { cwd: dir });
    }
    // 2. a fresh project outside the workspace; @core/* only from the tarballs
    // Each @core package is a dependency on its tarball, and an override points every @core range at the same
    // tarball, so npm resolves our packages from the tarballs alone (a lookup would fail at once: the scope's
    // registry does not exist and nothing is retried).
    const ours = {};
    for (const f of readdirSync(tarballs).filter((x) => x.endsWith('.tgz'))) {
      const manifest = JSON.parse((await sh('tar', ['-xzOf', join(tarballs, f), 'package/package.json'])).stdout);
      ours[manifest.name] = `file:${join(tarballs, f)}`;
    }
    writeFileSync(
      join(app, 'package.json'),
      JSON.stringify({ name: 'install-check', version: '1.0.0', private: true, type: 'module', dependencies: ours, overrides: ours }, null, 2),
    );
    writeFileSync(join(app, '.npmrc'), '@core:registry=http://127.0.0.1:9/\nfetch-retries=0\nfund=false\naudit=false\nupdate-notifier=false\n');
    await sh('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=error', ...PUBLIC], { cwd: app });
    // 3. the README examples, one folder per package
    for (const p of packages) {
      const readme = join(packagesDir, p, 'README.md');
      if (!existsSync(readme)) continue;
      const dir = join(app, 'examples', p);
      mkdirSync(dir, { recursive: true });
      // the folder stands for the reader's project root: its node_modules is the installed one (a README may
      // name a shipped file by its path, node_modules/@core/<package>/...)
      symlinkSync(join(app, 'node_modules'), join(dir, 'node_modules'), 'dir');
      const entry = { dir, scripts: [], commands: [] };
      let n = 0;
      for (const b of blocksOf(readFileSync(readme, 'utf8'))) {
        if (b.info.includes('fragment')) continue;
        if (b.lang === 'ts') {
          const name = b.file ?? `example-${++n}.ts`;
          writeFileSync(join(dir, name), `${b.code}\nexport {};\n`);
          if (b.file === undefined) entry.scripts.push(name.replace(/\.ts$/, '.js'));
        } else if (b.file !== undefined) {
          writeFileSync(join(dir, b.file), b.code);
        } else if (b.lang === 'sh' && /\brun\b/.test(b.info)) {
          entry.commands.push(
            ...b.code
              .split('\n')
              .map((l) => l.trim())
              .filter((l) => l !== '' && !l.startsWith('#')),
          );
        }
      }
      examples.set(p, entry);
    }
    // the fetch preload: a venue's public host goes to its emulator (EXAMPLE_VENUES maps origin -> emulator URL)
    // the WebSocket preload: @core/paced-websocket's import of 'ws' goes to a ws whose constructor moves a venue's
    // WebSocket URL to its emulator (EXAMPLE_WS_VENUES maps URL prefix -> emulator URL)
    writeFileSync(
      join(app, 'ws-hooks.mjs'),
      `export async function resolve(specifier, context, next) {
  if (specifier === 'ws' && (context.parentURL ?? '').includes('/@core/paced-websocket/')) return { url: new URL('./routed-ws.mjs', import.meta.url).href, shortCircuit: true };
  if (specifier === 'undici' && (context.parentURL ?? '').includes('/node_modules/ccxt/')) return { url: new URL('./routed-undici.mjs', import.meta.url).href, shortCircuit: true };
  return next(specifier, context);
}
`,
    );
    writeFileSync(
      join(app, 'routed-ws.mjs'),
      `import Real, { WebSocketServer } from 'ws';
const routes = JSON.parse(process.env.EXAMPLE_WS_VENUES ?? '{}');
function route(url) {
  const s = String(url);
  for (const [from, to] of Object.entries(routes)) if (s.startsWith(from)) return to + s.slice(from.length);
  return s;
}
export class WebSocket extends Real {
  constructor(url, ...rest) {
    super(route(url), ...rest);
  }
}
export { WebSocketServer };
export default WebSocket;
`,
    );
    // ccxt sends with undici.request: its import of 'undici' goes to one that moves a venue's URL to its emulator
    writeFileSync(
      join(app, 'routed-undici.mjs'),
      `import * as real from 'undici';
export * from 'undici';
const routes = JSON.parse(process.env.EXAMPLE_VENUES ?? '{}');
function route(url) {
  const s = String(url);
  for (const [from, to] of Object.entries(routes)) if (s.startsWith(from)) return to + s.slice(from.length);
  return s;
}
export function request(url, options) {
  return real.request(route(url), options);
}
export function fetch(input, init) {
  return real.fetch(typeof input === 'string' || input instanceof URL ? route(input) : input, init);
}
`,
    );
    writeFileSync(
      join(app, 'route-venues.mjs'),
      `import { register } from 'node:module';
register('./ws-hooks.mjs', import.meta.url);
const routes = JSON.parse(process.env.EXAMPLE_VENUES ?? '{}');
const send = globalThis.fetch;
globalThis.fetch = (input, init) => {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  for (const [from, to] of Object.entries(routes)) {
    if (url.startsWith(from)) {
      const moved = to + url.slice(from.length);
      return send(input instanceof Request ? new Request(moved, input) : moved, init);
    }
  }
  return send(input, init);
};
`,
    );
    // every example compiles as the reader would compile it: strict, NodeNext (the conformance example also with
    // its own tsconfig, from its README)
    writeFileSync(
      join(app, 'examples', 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          exactOptionalPropertyTypes: true,
          noUncheckedIndexedAccess: true,
          skipLibCheck: true,
          types: ['node'],
          outDir: 'build',
          rootDir: '.',
        },
        include: ['*/*.ts'],
      }),
    );
  },
  { timeout: 600_000 },
);

after(async () => {
  for (const c of cleanups.reverse()) {
    try {
      await c();
    } catch {
      // best effort
    }
  }
  if (!KEEP) rmSync(work, { recursive: true, force: true });
  else console.log(`kept ${work}`);
});

describe('packages install like any other (pnpm pack, then plain npm outside the workspace)', () => {
  it('every package is installed from its tarball, with workspace ranges rewritten', () => {
    for (const p of packages) {
      const pkg = JSON.parse(readFileSync(join(packagesDir, p, 'package.json'), 'utf8'));
      const installed = join(app, 'node_modules', pkg.name, 'package.json');
      assert.ok(existsSync(installed), `${pkg.name} is not installed`);
      const manifest = JSON.parse(readFileSync(installed, 'utf8'));
      for (const field of ['dependencies', 'peerDependencies', 'optionalDependencies']) {
        for (const [name, range] of Object.entries(manifest[field] ?? {}))
          assert.ok(!String(range).startsWith('workspace:'), `${pkg.name} ${field} ${name}: ${range}`);
      }
      // what the package exports exists in what it ships
      const main = join(app, 'node_modules', pkg.name, manifest.exports?.['.']?.default ?? manifest.main ?? 'index.js');
      assert.ok(existsSync(main), `${pkg.name}: its export ${main} is not in the tarball`);
      assert.ok(existsSync(join(app, 'node_modules', pkg.name, 'README.md')), `${pkg.name}: README.md is not in the tarball`);
    }
  });

  it('every package loads in plain node from the installed copy', async () => {
    for (const p of packages) {
      const { name } = JSON.parse(readFileSync(join(packagesDir, p, 'package.json'), 'utf8'));
      await sh(process.execPath, ['--input-type=module', '-e', `await import(${JSON.stringify(name)});`], { cwd: app });
    }
  });

  it('every README example compiles (tsc, strict, NodeNext)', async () => {
    await sh(process.execPath, [join(app, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', join(app, 'examples', 'tsconfig.json')], { cwd: app });
  });
});

describe('every README example runs', () => {
  let env;
  before(
    async () => {
      const redisPort = await startRedis();
      const clusterPort = await startCluster();
      const { startVenueEmulator } = await import(join(app, 'node_modules', '@core', 'venue-emulator', 'dist', 'index.js'));
      const { getVenueSpec } = await import(join(app, 'node_modules', '@core', 'exchange-specs', 'dist', 'index.js'));
      const binance = await startVenueEmulator({ spec: getVenueSpec('binance-spot'), webSocket: true });
      cleanups.push(() => binance.close());
      const okx = await startVenueEmulator({ spec: getVenueSpec('okx'), webSocket: true });
      cleanups.push(() => okx.close());
      env = {
        ...process.env,
        REDIS_URL: `redis://127.0.0.1:${redisPort}`,
        REDIS_CLUSTER_URL: `redis://127.0.0.1:${clusterPort}`,
        METRICS_PORT: String(await freePort()),
        EXAMPLE_VENUES: JSON.stringify({ 'https://api.binance.com': binance.url }),
        EXAMPLE_WS_VENUES: JSON.stringify({
          'wss://stream.binance.com:9443/ws': `${binance.wsUrl}/market-streams`,
          'wss://ws.okx.com:8443/ws/v5/private': `${okx.wsUrl}/private?apiKey=example`,
        }),
        NODE_OPTIONS: `--import=${join(app, 'route-venues.mjs')}`,
      };
      delete env['BINANCE_KEY'];
      delete env['BINANCE_SECRET'];
    },
    { timeout: 120_000 },
  );

  for (const p of packages) {
    it(`packages/${p}/README.md`, { timeout: 300_000 }, async () => {
      const e = examples.get(p);
      if (e === undefined) assert.fail(`packages/${p} has no README`);
      for (const script of e.scripts) {
        await sh(process.execPath, [join(app, 'examples', 'build', p, script)], { cwd: e.dir, env, timeout: 60_000 });
      }
      for (const command of e.commands) {
        await sh('bash', ['-c', command], { cwd: e.dir, env, timeout: 240_000 });
      }
      assert.ok(e.scripts.length + e.commands.length > 0, `packages/${p}/README.md has no example that runs`);
    });
  }
});
