// Proves the contract ships no runtime code a consumer needs and depends on nothing.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const here = new URL('..', import.meta.url).pathname;
const pkg = JSON.parse(readFileSync(join(here, 'package.json'), 'utf8'));
const problems = [];
if ('dependencies' in pkg) problems.push('package.json has a "dependencies" key');
if ('peerDependencies' in pkg) problems.push('package.json has a "peerDependencies" key');
const dist = join(here, 'dist');
for (const file of readdirSync(dist)) {
  if (!file.endsWith('.js')) continue;
  const code = readFileSync(join(dist, file), 'utf8')
    .replace(/\/\/# sourceMappingURL=.*$/m, '')
    .replace(/export \{\};/g, '')
    .trim();
  if (code !== '') problems.push(`dist/${file} emits runtime code: ${code.slice(0, 80)}`);
}
if (problems.length > 0) {
  console.error(problems.join('\n'));
  process.exit(1);
}
console.log('contract: no dependencies, no runtime code');
