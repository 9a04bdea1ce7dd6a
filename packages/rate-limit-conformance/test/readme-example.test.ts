// The README's from-scratch example and the two limiters of examples/, run as they are: each file is written
// beside this package (only the import of this package is pointed at its source), and its vitest file is
// loaded here, so the suite runs against each example in this package's own test job. (The repository's
// install test runs the same files from the packed tarballs, the README's also under node:test.)
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const files = new Map([...readme.matchAll(/```ts file=(\S+)\n([\s\S]*?)```/g)].map((m) => [m[1] as string, m[2] as string]));
const EXAMPLES = ['map-limiter.ts', 'map-limiter.test.ts', 'log-limiter.ts', 'log-limiter.test.ts'];
for (const name of EXAMPLES) {
  if (files.has(name)) throw new Error(`${name} is in examples/, not the README`);
  files.set(name, readFileSync(new URL(`../examples/${name}`, import.meta.url), 'utf8'));
}
const dir = new URL('../.readme-example/', import.meta.url);
mkdirSync(dir, { recursive: true });
const source = fileURLToPath(new URL('../src/index.js', import.meta.url));
for (const name of [...EXAMPLES, 'token-limiter.ts', 'token-limiter.test.ts']) {
  const code = files.get(name);
  if (code === undefined) throw new Error(`the README has no ${name} block`);
  writeFileSync(new URL(name, dir), code.replace("'@core/rate-limit-conformance'", JSON.stringify(source)));
}

it('the README shows a node:test twin of the vitest file and the tsconfig that compiles it', () => {
  const vitest = files.get('token-limiter.test.ts') ?? '';
  const node = files.get('token-limiter.node-test.ts') ?? '';
  expect(node).toContain("from 'node:test'");
  expect(
    node
      .replace(/^\/\/.*\n/, '')
      .replace("'node:test'", "'vitest'")
      .replace('token limiter (node:test)', 'token limiter'),
  ).toBe(vitest.replace(/^\/\/.*\n/, ''));
  expect(readme).toMatch(/```json file=tsconfig\.json\n[\s\S]*"files": \["token-limiter\.ts", "token-limiter\.node-test\.ts"\]/);
});

it('the window-limit example is at most 200 lines and imports nothing but the contract', () => {
  const code = files.get('log-limiter.ts') ?? '';
  expect(code.trimEnd().split('\n').length).toBeLessThanOrEqual(200);
  expect([...code.matchAll(/from '([^']+)'/g)].map((m) => m[1])).toEqual(['@core/rate-limit-contract', '@core/rate-limit-contract']);
});

it('the README opens with a from-scratch example of at most 150 lines that imports nothing but the contract', () => {
  const code = files.get('token-limiter.ts') ?? '';
  // the first TypeScript block of the README
  expect(readme.indexOf('```ts file=token-limiter.ts')).toBe(readme.indexOf('```ts'));
  expect(code.trimEnd().split('\n').length).toBeLessThanOrEqual(150);
  expect([...code.matchAll(/from '([^']+)'/g)].map((m) => m[1])).toEqual(['@core/rate-limit-contract', '@core/rate-limit-contract']);
});

it('the install test runs the from-scratch example from the packed tarballs, under vitest and node:test, and both examples/', () => {
  expect(readme).toMatch(
    /```sh run\nnpx vitest run token-limiter\.test\.ts\nnpx tsc -p tsconfig\.json && node --test build\/token-limiter\.node-test\.js\n```/,
  );
  expect(readme).toMatch(
    /```sh run\ncp node_modules\/@core\/rate-limit-conformance\/examples\/\*\.ts \.\nnpx vitest run log-limiter\.test\.ts map-limiter\.test\.ts\n```/,
  );
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { files: string[] };
  expect(pkg.files).toContain('examples');
});

await import(fileURLToPath(new URL('map-limiter.test.ts', dir)));
// the smallest from-scratch example against the whole suite
await import(fileURLToPath(new URL('token-limiter.test.ts', dir)));
// the from-scratch example against every window rule
await import(fileURLToPath(new URL('log-limiter.test.ts', dir)));
