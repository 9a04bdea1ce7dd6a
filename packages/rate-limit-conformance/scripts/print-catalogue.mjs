// Prints the README's rule catalogue table from the built suite: node scripts/print-catalogue.mjs
// after `pnpm test` (which builds the suite and compiles the fakes); the self-test fails when the
// README's table misses a test title.
import { RULES, runConformanceSuite } from '@core/rate-limit-conformance';
import { createFakeProvider } from '../.test-build/test/fakes/fake-provider.js';
import { createFakeSubject } from '../.test-build/test/fakes/fake-limiter.js';

const titles = [];
const describe = (_title, fn) => fn();
const it = Object.assign((title) => titles.push(title), { skip: (title) => titles.push(title) });
await runConformanceSuite({
  describe,
  it,
  name: 'catalogue',
  factory: ({ clock }) => createFakeSubject(clock),
  provider: ({ limiter, clock, limits }) => createFakeProvider(limiter, clock, limits),
});
const byRule = new Map();
for (const raw of titles) {
  const title = raw.replace(/ \[skipped: .*\]$/, '');
  const id = title.slice(0, 5);
  if (!byRule.has(id)) byRule.set(id, []);
  byRule.get(id).push(title.slice(6));
}
const cell = (text) => text.replace(/\|/g, '\\|');
const lines = ['| Id | Rule | Tests (title after the id) |', '| --- | --- | --- |'];
for (const rule of RULES) lines.push(`| ${rule.id} | ${cell(rule.rule)} | ${(byRule.get(rule.id) ?? []).map(cell).join('<br>')} |`);
console.log(lines.join('\n'));
