// Prints the catalogue (each rule with the titles of its tests) from the built suite, or writes it
// between the catalogue markers of CATALOGUE.md with --write. Needs the suite built and the fakes
// compiled (`pnpm test` does both; `pnpm rulebook` regenerates everything from the rulebook).
import { readFileSync, writeFileSync } from 'node:fs';
import { RULES, runConformanceSuite } from '@core/rate-limit-conformance';
import { createFakeProvider } from '../.test-build/test/fakes/fake-provider.js';
import { createFakeSubject } from '../.test-build/test/fakes/fake-subject.js';
import { renderTestTable, withCatalogue } from './catalogue-table.mjs';

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
const table = renderTestTable(RULES, titles);
if (process.argv.includes('--write')) {
  const path = new URL('../CATALOGUE.md', import.meta.url);
  writeFileSync(path, withCatalogue(readFileSync(path, 'utf8'), table));
} else {
  console.log(table);
}
