// Puts one mutant of a Stryker JSON report into its source file behind a switch (`globalThis.__mutant`), so that
// mutation/probe.test.ts can answer the same calls with the original and with the mutant in one process. Expression
// mutants only (a comparison, a condition, an operator). Usage, from the repository's root:
//   node mutation/probe-switch.mjs mutation/reports/default.json packages/rate-limit-kit/src/classes.ts 210
//   PROBE_KIND=classes npx vitest run --config mutation/vitest.probe.config.mjs
//   git checkout packages/rate-limit-kit/src/classes.ts
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const [reportPath, file, id] = process.argv.slice(2);
if (id === undefined) throw new Error('usage: node mutation/probe-switch.mjs <report.json> <file> <mutant id>');
const { source, mutants } = JSON.parse(readFileSync(reportPath, 'utf8')).files[file];
const m = mutants.find((x) => x.id === id);
if (m === undefined) throw new Error(`no mutant ${id} in ${file}`);
const lines = source.split('\n');
const offset = ({ line, column }) => lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0) + column - 1;
const a = offset(m.location.start);
const b = offset(m.location.end);
const original = source.slice(a, b);
writeFileSync(
  `${root}${file}`,
  `${source.slice(0, a)}((globalThis as { __mutant?: boolean }).__mutant ? (${m.replacement}) : (${original}))${source.slice(b)}`,
);
console.log(`${file}: mutant ${id} (${m.mutatorName}) behind the switch: ${original.replace(/\s+/g, ' ')} → ${m.replacement}`);
