// Typechecks every ```ts block of every package README against the built packages, so the examples
// cannot drift from the code. A block fenced as ```ts fragment (a sketch with the reader's own names, or a quote
// of a file that is compiled where it lives) is skipped, and so is ```ts installed (an example that needs packages
// its own package does not depend on: the install test, scripts/pack-install.test.mjs, compiles and runs it). A
// block fenced as ```ts file=NAME is written as NAME, so the files of one example can import each other.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const root = resolve(new URL('..', import.meta.url).pathname);
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
let failures = 0;
let checked = 0;
for (const name of readdirSync(join(root, 'packages'))) {
  const dir = join(root, 'packages', name);
  const readme = join(dir, 'README.md');
  if (!existsSync(readme)) continue;
  const blocks = [...readFileSync(readme, 'utf8').matchAll(/```ts([^\n]*)\n([\s\S]*?)```/g)]
    .filter((m) => !m[1].includes('fragment') && !m[1].includes('installed'))
    .map((m) => ({ name: /file=(\S+)/.exec(m[1])?.[1], code: m[2] }));
  if (blocks.length === 0) continue;
  const out = join(dir, '.readme-check');
  rmSync(out, { recursive: true, force: true });
  mkdirSync(out);
  blocks.forEach(({ name, code }, i) => writeFileSync(join(out, name ?? `example-${i + 1}.ts`), `${code}\nexport {};\n`));
  writeFileSync(
    join(out, 'tsconfig.json'),
    JSON.stringify({
      extends: '../../../tsconfig.base.json',
      compilerOptions: { noEmit: true, rootDir: '.', noUnusedLocals: false },
      include: ['*.ts'],
    }),
  );
  try {
    execFileSync(process.execPath, [tsc, '-p', join(out, 'tsconfig.json')], { stdio: 'pipe' });
    checked += blocks.length;
    rmSync(out, { recursive: true, force: true });
  } catch (error) {
    failures += 1;
    console.error(`packages/${name}/README.md examples do not compile (kept in packages/${name}/.readme-check):`);
    console.error(String(error.stdout ?? error));
  }
}
if (failures > 0) process.exit(1);
console.log(`README examples: ${checked} TypeScript blocks compile`);
