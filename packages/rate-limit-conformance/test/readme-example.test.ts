// The README's examples, run as they are (the two from-scratch limiters, and the "your own limiter" one): its files are taken from the README, written beside
// this package (only the import of this package is pointed at its source), and its vitest file is loaded here,
// so the whole suite runs against the example's Map limiter in this package's own test job. (The repository's
// install test runs the same files from the packed tarballs, under vitest and node:test.)
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const files = new Map([...readme.matchAll(/```ts file=(\S+)\n([\s\S]*?)```/g)].map((m) => [m[1] as string, m[2] as string]));
const dir = new URL('../.readme-example/', import.meta.url);
mkdirSync(dir, { recursive: true });
const source = fileURLToPath(new URL('../src/index.js', import.meta.url));
for (const name of ['map-limiter.ts', 'map-limiter.test.ts', 'log-limiter.ts', 'log-limiter.test.ts', 'token-limiter.ts', 'token-limiter.test.ts']) {
  const code = files.get(name);
  if (code === undefined) throw new Error(`the README has no ${name} block`);
  writeFileSync(new URL(name, dir), code.replace("'@core/rate-limit-conformance'", JSON.stringify(source)));
}

it('the README shows a node:test twin of the vitest file and the tsconfig that compiles it', () => {
  const vitest = files.get('map-limiter.test.ts') ?? '';
  const node = files.get('map-limiter.node-test.ts') ?? '';
  expect(node).toContain("from 'node:test'");
  expect(
    node
      .replace(/^\/\/.*\n/, '')
      .replace("'node:test'", "'vitest'")
      .replace('map limiter (node:test)', 'map limiter'),
  ).toBe(vitest.replace(/^\/\/.*\n/, ''));
  expect(readme).toMatch(/```json file=tsconfig\.json\n[\s\S]*"files": \["map-limiter\.ts", "map-limiter\.node-test\.ts"\]/);
});

it('the from-scratch example is at most 200 lines and imports nothing but the contract', () => {
  const code = files.get('log-limiter.ts') ?? '';
  expect(code.trimEnd().split('\n').length).toBeLessThanOrEqual(200);
  expect([...code.matchAll(/from '([^']+)'/g)].map((m) => m[1])).toEqual(['@core/rate-limit-contract', '@core/rate-limit-contract']);
});

it('the README opens with a from-scratch example of at most 150 lines that imports nothing but the contract', () => {
  const code = files.get('token-limiter.ts') ?? '';
  expect(readme.indexOf('```ts file=token-limiter.ts')).toBeLessThan(readme.indexOf('```ts file=log-limiter.ts'));
  expect(code.trimEnd().split('\n').length).toBeLessThanOrEqual(150);
  expect([...code.matchAll(/from '([^']+)'/g)].map((m) => m[1])).toEqual(['@core/rate-limit-contract', '@core/rate-limit-contract']);
});

it('the install test runs both from-scratch examples from the packed tarballs', () => {
  expect(readme).toMatch(/```sh run\nnpx vitest run token-limiter\.test\.ts log-limiter\.test\.ts\n```/);
});

await import(fileURLToPath(new URL('map-limiter.test.ts', dir)));
// the smallest from-scratch example against the whole suite
await import(fileURLToPath(new URL('token-limiter.test.ts', dir)));
// the from-scratch example against every window rule
await import(fileURLToPath(new URL('log-limiter.test.ts', dir)));
