// Reads the test run's output on stdin and prints one closing line with the totals over every runner
// (vitest's "Tests  N passed | M skipped (T)" lines and node:test's "# pass N" summaries).
import { readFileSync } from 'node:fs';

const text = readFileSync(0, 'utf8').replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '');
let passed = 0;
let failed = 0;
let skipped = 0;
for (const line of text.split('\n')) {
  const vitest = /^\S*\s*Tests\s+(.*)\(\d+\)\s*$/.exec(line);
  if (vitest) {
    for (const [, n, what] of vitest[1].matchAll(/(\d+) (passed|failed|skipped|todo)/g)) {
      if (what === 'passed') passed += Number(n);
      else if (what === 'failed') failed += Number(n);
      else skipped += Number(n);
    }
    continue;
  }
  const node = /^\S*\s*# (pass|fail|skipped|todo) (\d+)\s*$/.exec(line);
  if (node) {
    if (node[1] === 'pass') passed += Number(node[2]);
    else if (node[1] === 'fail') failed += Number(node[2]);
    else skipped += Number(node[2]);
  }
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
