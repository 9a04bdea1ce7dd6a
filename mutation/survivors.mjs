// Lists the mutants a Stryker JSON report leaves undetected (Survived, NoCoverage), one Markdown table row each in the
// form of mutation/EQUIVALENT.md: `| line:col | mutator | original → replacement | status |`, the reason left for a
// person to write. Usage: `node mutation/survivors.mjs [report] [file-substring]`, by default
// mutation/reports/default.json and every file in it.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The longest code shown in a row (longer code is cut with an ellipsis). */
const MAX_CODE = 70;

const root = fileURLToPath(new URL('..', import.meta.url));
const [reportPath = `${root}mutation/reports/default.json`, only = ''] = process.argv.slice(2);
const report = JSON.parse(readFileSync(reportPath, 'utf8'));

const code = (text) => {
  const flat = text.replace(/\s+/g, ' ');
  return `\`${flat.length > MAX_CODE ? `${flat.slice(0, MAX_CODE - 1)}…` : flat}\``.replace(/\|/g, '\\|');
};

for (const [file, { source, mutants }] of Object.entries(report.files)) {
  if (!file.includes(only)) continue;
  const lines = source.split('\n');
  const left = mutants
    .filter((m) => m.status === 'Survived' || m.status === 'NoCoverage')
    .sort((a, b) => a.location.start.line - b.location.start.line || a.location.start.column - b.location.start.column);
  if (left.length === 0) continue;
  console.log(`\n## ${file} (${left.length} of ${mutants.length} undetected)\n`);
  console.log('| line:col | mutator | original → replacement | status |');
  console.log('| --- | --- | --- | --- |');
  for (const m of left) {
    const { start, end } = m.location;
    const first = lines[start.line - 1] ?? '';
    const original = start.line === end.line ? first.slice(start.column - 1, end.column - 1) : `${first.slice(start.column - 1)} …`;
    console.log(`| ${start.line}:${start.column} | ${m.mutatorName} | ${code(original)} → ${code(m.replacement ?? '')} | ${m.status} |`);
  }
}
