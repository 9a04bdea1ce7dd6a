// Tests of scripts/check-layout.mjs on small fake monorepos, and on this repository.
//   node --test scripts/check-layout.test.mjs
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { checkLayout, formatViolation, importsOf } from './check-layout.mjs';

const SCRIPT = fileURLToPath(new URL('check-layout.mjs', import.meta.url));
const REPO = fileURLToPath(new URL('..', import.meta.url));
const CONTRACT = '@core/rate-limit-contract';
const KIT = '@core/rate-limit-kit';
const DEFAULT = '@core/default-rate-limiter';

const manifest = (name, dependencies = {}, devDependencies = {}, extra = {}) => ({
  name,
  version: '0.1.0',
  type: 'module',
  exports: { '.': { types: './dist/index.d.ts', default: './dist/index.js' } },
  ...(Object.keys(dependencies).length > 0 ? { dependencies } : {}),
  ...(Object.keys(devDependencies).length > 0 ? { devDependencies } : {}),
  ...extra,
});
const ws = 'workspace:^';

/** A clean monorepo: the contract, the kit, both limiters, the specs and the conformance suite. */
function cleanLayout() {
  return {
    'packages/rate-limit-contract/package.json': manifest(CONTRACT, {}, { typescript: '~5.9.3' }),
    'packages/rate-limit-contract/src/index.ts': "export type { Limit } from './limit.js';\n",
    'packages/rate-limit-contract/src/limit.ts': 'export interface Limit { readonly capacity: number }\n',
    'packages/rate-limit-kit/package.json': manifest(KIT, { [CONTRACT]: ws }, { vitest: '~4.1.9' }),
    'packages/rate-limit-kit/src/index.ts': "export { planAdmission } from './gcra.js';\n",
    'packages/rate-limit-kit/src/gcra.ts': [
      `import type { Limit } from '${CONTRACT}';`,
      '/**',
      ' * @example',
      ` * import { createDefaultRateLimiter } from '${DEFAULT}';`,
      ' */',
      'export const planAdmission = (l: Limit): number => l.capacity;',
      `export const note = "import x from '${DEFAULT}'";`,
      '',
    ].join('\n'),
    'packages/rate-limit-kit/test/gcra.test.ts':
      "import { it } from 'vitest';\nimport { planAdmission } from '../src/index.js';\nit('ok', () => planAdmission({ capacity: 1 }));\n",
    'packages/default-rate-limiter/package.json': manifest(DEFAULT, { [CONTRACT]: ws, [KIT]: ws }, { '@core/rate-limit-conformance': ws }),
    'packages/default-rate-limiter/src/index.ts': `import { planAdmission } from '${KIT}';\nimport type { Limit } from '${CONTRACT}';\nexport const createDefaultRateLimiter = (l: Limit) => planAdmission(l);\n`,
    'packages/default-rate-limiter/test/conformance.test.ts': `import { runConformanceSuite } from '@core/rate-limit-conformance';\nimport { createDefaultRateLimiter } from '../src/index.js';\nawait runConformanceSuite({ createDefaultRateLimiter });\n`,
    'packages/redis-rate-limiter/package.json': manifest('@core/redis-rate-limiter', { [CONTRACT]: ws, [KIT]: ws }, { [DEFAULT]: ws }),
    'packages/redis-rate-limiter/src/index.ts': `export * from '${KIT}';\nexport type * as contract from '${CONTRACT}';\n`,
    'packages/redis-rate-limiter/test/differential.test.ts': `const { createDefaultRateLimiter } = await import('${DEFAULT}');\n`,
    'packages/exchange-specs/package.json': manifest('@core/exchange-specs', { [CONTRACT]: ws }, { [DEFAULT]: ws }),
    'packages/exchange-specs/src/index.ts': `import type { Limit } from '${CONTRACT}';\nexport const limits: Limit[] = [];\n`,
    'packages/exchange-specs/src/venues/okx.ts': "import type { Limit } from '../index.js';\nexport const okx: Limit[] = [];\n",
    'packages/exchange-specs/test/safety-replay.test.ts': `import { createDefaultRateLimiter } from '${DEFAULT}';\nimport { limits } from '../src/index.js';\ncreateDefaultRateLimiter(limits[0]);\n`,
    'packages/rate-limit-conformance/package.json': manifest('@core/rate-limit-conformance', { [CONTRACT]: ws, 'fast-check': '^4.3.0' }),
    'packages/rate-limit-conformance/src/index.ts': `import fc from 'fast-check';\nexport type { Limit } from '${CONTRACT}';\nexport const runConformanceSuite = async (o: unknown) => fc;\n`,
  };
}

const roots = [];
after(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

/** Writes a fake monorepo (the clean layout with `changes`; `null` removes a file) and returns its root. */
function fakeRepo(changes = {}) {
  const root = mkdtempSync(join(tmpdir(), 'check-layout-'));
  roots.push(root);
  const files = { ...cleanLayout(), ...changes };
  for (const [path, content] of Object.entries(files)) {
    if (content === null) continue;
    const abs = join(root, path);
    mkdirSync(dirname(abs), { recursive: true });
    writeFileSync(abs, typeof content === 'string' ? content : `${JSON.stringify(content, null, 2)}\n`);
  }
  return root;
}

const lines = (root) => checkLayout(root).map(formatViolation);

describe('check-layout on fake monorepos', () => {
  it('a clean layout passes (TSDoc examples and strings are not imports; tests import declared dev dependencies)', () => {
    assert.deepEqual(lines(fakeRepo()), []);
  });

  it('the CLI prints the counts and exits 0 on a clean layout', () => {
    const out = execFileSync(process.execPath, [SCRIPT, fakeRepo()], { encoding: 'utf8' });
    assert.equal(out, 'layout: 13 files in 6 packages, 0 violations\n');
  });

  it('the contract importing the kit fails, declared or not', () => {
    const root = fakeRepo({
      'packages/rate-limit-contract/src/limit.ts': `import type { Plan } from '${KIT}';\nexport interface Limit { readonly plan: Plan }\n`,
    });
    assert.deepEqual(lines(root), [
      `packages/rate-limit-contract/src/limit.ts:1: ${CONTRACT} may not import ${KIT} (its src/ may import no @core package: the contract is types and rule ids only: it imports nothing and depends on nothing)`,
      `packages/rate-limit-contract/src/limit.ts:1: ${CONTRACT} may not import ${KIT} (not declared in packages/rate-limit-contract/package.json (dependencies, devDependencies or peerDependencies))`,
    ]);
    const declared = fakeRepo({
      'packages/rate-limit-contract/package.json': manifest(CONTRACT, { [KIT]: ws }),
      'packages/rate-limit-contract/src/limit.ts': `export type { Plan } from '${KIT}';\n`,
    });
    const v = checkLayout(declared);
    assert.deepEqual(
      v.map((x) => `${x.file}:${x.line} ${x.spec}`),
      ['packages/rate-limit-contract/package.json:12 @core/rate-limit-kit', 'packages/rate-limit-contract/src/limit.ts:1 @core/rate-limit-kit'],
    );
    assert.match(v[0].reason, /declared in dependencies/);
    assert.match(v[1].reason, /may import no @core package/);
  });

  it('exchange-specs importing @core/default-rate-limiter in src fails, even declared as a dependency', () => {
    const root = fakeRepo({
      'packages/exchange-specs/package.json': manifest('@core/exchange-specs', { [CONTRACT]: ws, [DEFAULT]: ws }),
      'packages/exchange-specs/src/venues/okx.ts': `import type { Limit } from '../index.js';\nimport { createDefaultRateLimiter } from '${DEFAULT}';\nexport const okx: Limit[] = [];\n`,
    });
    assert.deepEqual(lines(root), [
      `packages/exchange-specs/src/venues/okx.ts:2: @core/exchange-specs may not import ${DEFAULT} (its src/ may import only ${CONTRACT}: venue specs are data over the contract; they never import a limiter)`,
    ]);
  });

  it('a limiter importing the other limiter in src fails; a dynamic import counts', () => {
    const root = fakeRepo({
      'packages/redis-rate-limiter/package.json': manifest('@core/redis-rate-limiter', { [CONTRACT]: ws, [KIT]: ws, [DEFAULT]: ws }),
      'packages/redis-rate-limiter/src/fallback.ts': `export const load = () => import('${DEFAULT}');\n`,
    });
    assert.deepEqual(
      checkLayout(root).map((v) => `${v.file}:${v.line} ${v.spec}`),
      [`packages/redis-rate-limiter/src/fallback.ts:1 ${DEFAULT}`],
    );
  });

  it('a deep import of @core/rate-limit-kit/src/gcra.js fails (and /dist/ too); a subpath the exports map declares passes', () => {
    const root = fakeRepo({
      'packages/default-rate-limiter/src/store.ts': `import {\n  planAdmission,\n} from '${KIT}/src/gcra.js';\nexport { planAdmission };\n`,
      'packages/default-rate-limiter/test/deep.test.ts': `import '${KIT}/dist/gcra.js';\n`,
    });
    assert.deepEqual(lines(root), [
      `packages/default-rate-limiter/src/store.ts:3: ${DEFAULT} may not import ${KIT}/src/gcra.js (the internals of ${KIT}: its exports map declares no "./src/gcra.js")`,
      `packages/default-rate-limiter/test/deep.test.ts:1: ${DEFAULT} may not import ${KIT}/dist/gcra.js (the internals of ${KIT}: its exports map declares no "./dist/gcra.js")`,
    ]);
    const exported = fakeRepo({
      'packages/rate-limit-kit/package.json': manifest(
        KIT,
        { [CONTRACT]: ws },
        {},
        {
          exports: { '.': './dist/index.js', './gcra': './dist/gcra.js', './lua/*': './lua/*.lua' },
        },
      ),
      'packages/default-rate-limiter/src/store.ts': `import { planAdmission } from '${KIT}/gcra';\nimport admit from '${KIT}/lua/admit';\nexport { planAdmission, admit };\n`,
    });
    assert.deepEqual(lines(exported), []);
  });

  it('a relative import into a sibling package fails', () => {
    const root = fakeRepo({
      'packages/exchange-specs/src/venues/okx.ts':
        "import type { Limit } from '../index.js';\nimport { planAdmission } from '../../../rate-limit-kit/src/gcra.js';\nexport const okx: Limit[] = [planAdmission];\n",
      'packages/exchange-specs/test/outside.test.ts': "import '../../../scripts/helper.mjs';\n",
    });
    assert.deepEqual(
      lines(root),
      [
        '@core/exchange-specs may not import ../../../rate-limit-kit/src/gcra.js (a relative path that leaves packages/exchange-specs/, into the internals of @core/rate-limit-kit; import the package by its name)',
        '@core/exchange-specs may not import ../../../scripts/helper.mjs (a relative path that leaves packages/exchange-specs/, outside every package; import the package by its name)',
      ].map((s, i) => `${['packages/exchange-specs/src/venues/okx.ts:2', 'packages/exchange-specs/test/outside.test.ts:1'][i]}: ${s}`),
    );
  });

  it('an undeclared @core dependency fails, in src and in tests; a src import declared only in devDependencies fails too', () => {
    const root = fakeRepo({
      'packages/rate-limit-kit/test/gcra.test.ts': "import { runConformanceSuite } from '@core/rate-limit-conformance';\nrunConformanceSuite({});\n",
      'packages/exchange-specs/src/venues/okx.ts':
        "import type { Limit } from '../index.js';\nimport type { Suite } from '@core/rate-limit-conformance';\nexport const okx: Limit[] = [];\n",
      'packages/rate-limit-conformance/src/index.ts': `import type { Limit } from '${CONTRACT}';\nimport { planAdmission } from '${KIT}';\nexport const runConformanceSuite = (l: Limit) => planAdmission(l);\n`,
      'packages/rate-limit-conformance/package.json': manifest('@core/rate-limit-conformance', { [CONTRACT]: ws }, { [KIT]: ws }),
    });
    const v = checkLayout(root);
    assert.deepEqual(
      v.map((x) => `${x.file}:${x.line} ${x.spec}`),
      [
        'packages/exchange-specs/src/venues/okx.ts:2 @core/rate-limit-conformance',
        'packages/exchange-specs/src/venues/okx.ts:2 @core/rate-limit-conformance',
        'packages/rate-limit-conformance/src/index.ts:2 @core/rate-limit-kit',
        'packages/rate-limit-kit/test/gcra.test.ts:1 @core/rate-limit-conformance',
      ],
    );
    assert.match(v[0].reason, /its src\/ may import only @core\/rate-limit-contract/);
    assert.match(v[1].reason, /^not declared in packages\/exchange-specs\/package\.json/);
    assert.equal(v[2].reason, 'src/ ships, but packages/rate-limit-conformance/package.json declares @core/rate-limit-kit only in devDependencies');
    assert.match(v[3].reason, /^not declared in packages\/rate-limit-kit\/package\.json/);
  });

  it('an import of a @core package that does not exist fails', () => {
    const root = fakeRepo({ 'packages/rate-limit-kit/test/gcra.test.ts': "import '@core/nope';\n" });
    assert.deepEqual(lines(root), [
      'packages/rate-limit-kit/test/gcra.test.ts:1: @core/rate-limit-kit may not import @core/nope (no workspace package is named @core/nope)',
    ]);
  });

  it('the contract declares no runtime dependency and its src imports no package at all', () => {
    const root = fakeRepo({
      'packages/rate-limit-contract/package.json': manifest(CONTRACT, { tslib: '^2.0.0' }),
      'packages/rate-limit-contract/src/limit.ts':
        "import { __assign } from 'tslib';\nexport interface Limit { readonly capacity: number }\nexport const a = __assign;\n",
    });
    assert.deepEqual(
      checkLayout(root).map((x) => `${x.file}:${x.line} ${x.spec}`),
      ['packages/rate-limit-contract/package.json:12 tslib', 'packages/rate-limit-contract/src/limit.ts:1 tslib'],
    );
  });

  it('the CLI prints one line per violation and exits 1', () => {
    const root = fakeRepo({ 'packages/rate-limit-kit/src/x.ts': `export * from '${DEFAULT}';\n` });
    let failure;
    try {
      execFileSync(process.execPath, [SCRIPT, root], { encoding: 'utf8' });
    } catch (e) {
      failure = e;
    }
    assert.equal(failure?.status, 1);
    const out = failure.stdout.trim().split('\n');
    assert.equal(out.length, 3);
    assert.match(
      out[0],
      /^packages\/rate-limit-kit\/src\/x\.ts:1: @core\/rate-limit-kit may not import @core\/default-rate-limiter \(its src\/ may import only @core\/rate-limit-contract: /,
    );
    assert.match(out[1], /^packages\/rate-limit-kit\/src\/x\.ts:1: .* \(not declared in /);
    assert.equal(out[2], 'layout: 14 files in 6 packages, 2 violations');
  });
});

describe('reading imports', () => {
  it('finds static, side-effect, re-export, type, dynamic and require specifiers, and nothing in comments, strings or regexes', () => {
    const text = [
      '#!/usr/bin/env node',
      "import a, { b as c } from 'a';",
      "import * as d from 'd';",
      "import 'side';",
      "import type { T } from 'types';",
      "export { e } from 'e';",
      "export * as f from 'f';",
      "export type * from 'g';",
      "const h = await import('h');",
      "type I = typeof import('i');",
      "const j = require('j');",
      "// import x from 'comment';",
      "/* export * from 'block'; */",
      'const s = "import y from \'string\'";',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the source text under test holds a template literal
      "const t = `import z from 'template' ${import.meta.url} ${`nested ${'inner'}`}`;",
      "const r = /import k from 'regex'/g.test(s) ? 1 / 2 : 3;",
      "const { from } = { from: 'not-a-spec' };",
      'export { from };',
      'import {',
      '  l,',
      "} from 'multi-line';",
    ].join('\n');
    assert.deepEqual(
      importsOf(text).map((x) => `${x.line}:${x.spec}`),
      ['2:a', '3:d', '4:side', '5:types', '6:e', '7:f', '8:g', '9:h', '10:i', '11:j', '21:multi-line'],
    );
  });
});

describe('this repository', () => {
  it('passes the layout check', () => {
    assert.deepEqual(checkLayout(REPO).map(formatViolation), []);
  });
});
