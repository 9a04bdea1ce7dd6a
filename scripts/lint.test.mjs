// The lint step fails where it should: Biome on an unused import and on a wrongly formatted line, and the Lua
// linter on a global, a line too long and a library function no script calls. Run by scripts/test.sh.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import { lintLua } from './lint-lua.mjs';

const root = resolve(new URL('..', import.meta.url).pathname);
const biome = join(root, 'node_modules', '.bin', 'biome');

/** Runs `biome check` on one file written inside the repository (so biome.json applies); returns its output, or null when clean. */
function biomeCheck(source) {
  const dir = mkdtempSync(join(root, '.lint-test-'));
  try {
    writeFileSync(join(dir, 'sample.ts'), source);
    const run = spawnSync(biome, ['check', '--colors=off', join(dir, 'sample.ts')], { cwd: root, encoding: 'utf8' });
    return run.status === 0 ? null : run.stdout + run.stderr;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test('biome passes a clean, formatted file', () => {
  assert.equal(biomeCheck("import { join } from 'node:path';\n\nexport const here = join('a', 'b');\n"), null);
});

test('biome fails on an unused import', () => {
  const out = biomeCheck("import { join, resolve } from 'node:path';\n\nexport const here = join('a', 'b');\n");
  assert.match(out ?? '', /noUnusedImports/);
});

test('biome fails on a wrongly formatted line', () => {
  const out = biomeCheck("import { join } from 'node:path';\n\nexport const here = join( \"a\",'b' )\n");
  assert.match(out ?? '', /format/i);
});

test('biome fails on a non-null assertion in src without a comment', () => {
  const dir = mkdtempSync(join(root, 'packages', '.lint-test-'));
  try {
    mkdirSync(join(dir, 'src'));
    writeFileSync(join(dir, 'src', 'sample.ts'), 'export const first = (xs: number[]): number => xs[0]!;\n');
    const run = spawnSync(biome, ['check', '--colors=off', join(dir, 'src', 'sample.ts')], { cwd: root, encoding: 'utf8' });
    assert.notEqual(run.status, 0);
    assert.match(run.stdout + run.stderr, /noNonNullAssertion/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** A package of Lua parts under a temporary root, linted with the Redis package's own .luacheckrc. */
function luaPackage(parts, manifest) {
  const dir = mkdtempSync(join(tmpdir(), 'lint-lua-'));
  const pkg = join(dir, 'packages', 'store');
  mkdirSync(join(pkg, 'lua'), { recursive: true });
  copyFileSync(join(root, 'packages', 'redis-rate-limiter', '.luacheckrc'), join(pkg, '.luacheckrc'));
  for (const [name, body] of Object.entries(parts)) writeFileSync(join(pkg, 'lua', `${name}.lua`), body);
  writeFileSync(join(pkg, 'lua', 'scripts.json'), JSON.stringify(manifest));
  try {
    return lintLua(dir).problems;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const LIB = 'local function twice(x)\n  return 2 * x\nend\n\nlocal function thrice(x)\n  return 3 * x\nend\n';

test('the Lua lint passes a library whose every function some script uses', () => {
  const problems = luaPackage(
    { lib: LIB, a: 'return twice(tonumber(ARGV[1]))\n', b: "return thrice(redis.call('GET', KEYS[1]))\n" },
    { a: ['lib', 'a'], b: ['lib', 'b'] },
  );
  assert.deepEqual(problems, []);
});

test('the Lua lint fails on a global written or read, at the part and line where it is', () => {
  const problems = luaPackage({ lib: LIB, a: 'total = twice(1)\nreturn thrice(total)\n' }, { a: ['lib', 'a'] });
  assert.ok(
    problems.some((p) => p.startsWith('packages/store/lua/a.lua:1:') && p.includes('W111')),
    problems.join('\n'),
  );
  assert.ok(
    problems.some((p) => p.startsWith('packages/store/lua/a.lua:2:') && p.includes('W113')),
    problems.join('\n'),
  );
});

test('the Lua lint fails on a library function that no script calls, and on a line too long', () => {
  const problems = luaPackage({ lib: LIB, a: `return twice(1) -- ${'x'.repeat(160)}\n` }, { a: ['lib', 'a'] });
  assert.ok(
    problems.some((p) => p.includes("unused function 'thrice'")),
    problems.join('\n'),
  );
  assert.ok(
    problems.some((p) => p.includes('W631')),
    problems.join('\n'),
  );
});
