// The rulebook (packages/rate-limit-contract/RULEBOOK.md) is the one source of the rules. This script
// parses it strictly and generates from it the suite's catalogue (src/rule-catalogue.ts) and the rule
// index of the contract's README (between its rule-table markers: each section's rule ids).
//   node scripts/rulebook.mjs            prints what it would write
//   node scripts/rulebook.mjs --write    writes both files
//   node scripts/rulebook.mjs --check    exits 1 when either file is stale
// `pnpm --filter @core/rate-limit-conformance rulebook` writes them and then the suite's CATALOGUE.md.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const RULEBOOK_URL = new URL('../../rate-limit-contract/RULEBOOK.md', import.meta.url);
export const CATALOGUE_URL = new URL('../src/rule-catalogue.ts', import.meta.url);
export const CONTRACT_README_URL = new URL('../../rate-limit-contract/README.md', import.meta.url);

export const TABLE_START = '<!-- rule-table:start (generated from RULEBOOK.md by `pnpm --filter @core/rate-limit-conformance rulebook`; do not edit) -->';
export const TABLE_END = '<!-- rule-table:end -->';

/** The sections of prose (no rules in them) and the section listing rules the suite does not test. */
const PROSE_SECTIONS = new Set(['Terms', 'The model', 'What a capability switched off still requires']);
const UNTESTED_SECTION = 'Outside the conformance suite';
const RULE_LINE = /^- \*\*(RL-([A-Z])(\d+))\*\* (\S(?:.*\S)?)$/;

/**
 * Parses the rulebook. Throws with the line number on anything outside its fixed shape: a rule is one
 * line `- **RL-X9** text` in a section (`## Name`); ids are unique, numbered 1, 2, … per letter in
 * order, and a letter belongs to one section; a section's prose may only precede its first rule.
 *
 * @param {string} text
 * @returns {{ rules: { id: string, section: string, rule: string }[], untested: { id: string, reason: string }[] }}
 */
export function parseRulebook(text) {
  const rules = [];
  const untested = [];
  const sectionOfLetter = new Map();
  const lastNumber = new Map();
  let section;
  let seenRuleInSection = false;
  const lines = text.split('\n');
  const fail = (n, why) => {
    throw new Error(`RULEBOOK.md:${n + 1}: ${why}: ${JSON.stringify(lines[n])}`);
  };
  if (!lines[0]?.startsWith('# ')) fail(0, 'the rulebook starts with its title (# …)');
  for (let n = 1; n < lines.length; n++) {
    const line = lines[n];
    if (line.trim() === '') continue;
    if (line !== line.trimEnd()) fail(n, 'trailing whitespace');
    if (line.startsWith('#')) {
      if (!line.startsWith('## ') || line.startsWith('###')) fail(n, 'only sections (## …) divide the rulebook');
      section = line.slice(3);
      if (section.trim() !== section || section === '') fail(n, 'a section needs a name');
      seenRuleInSection = false;
      continue;
    }
    const m = RULE_LINE.exec(line);
    const looksLikeRule = line.startsWith('- **RL-') || /^\s*[-*]\s*\*{0,2}RL-/.test(line);
    if (section === undefined || PROSE_SECTIONS.has(section)) {
      if (looksLikeRule) fail(n, 'a rule outside a rule section');
      continue;
    }
    if (section === UNTESTED_SECTION) {
      if (m === null) fail(n, `every line of "${UNTESTED_SECTION}" is "- **RL-X9** reason"`);
      const [, id, , , reason] = m;
      if (!rules.some((r) => r.id === id)) fail(n, `${id} is not a rule of the rulebook`);
      if (untested.some((u) => u.id === id)) fail(n, `${id} is listed twice`);
      untested.push({ id, reason });
      continue;
    }
    if (m === null) {
      if (looksLikeRule || line.startsWith('- ') || line.startsWith('* ')) fail(n, 'not a rule line of the form "- **RL-X9** text"');
      if (seenRuleInSection) fail(n, 'prose after the rules of a section (a rule is one line)');
      continue;
    }
    const [, id, letter, digits, rule] = m;
    const number = Number(digits);
    if (rules.some((r) => r.id === id)) fail(n, `${id} is defined twice`);
    const owner = sectionOfLetter.get(letter);
    if (owner !== undefined && owner !== section) fail(n, `RL-${letter} rules belong to "${owner}", not "${section}"`);
    sectionOfLetter.set(letter, section);
    if (number !== (lastNumber.get(letter) ?? 0) + 1) fail(n, `${id} out of order (expected RL-${letter}${(lastNumber.get(letter) ?? 0) + 1})`);
    lastNumber.set(letter, number);
    rules.push({ id, section, rule });
    seenRuleInSection = true;
  }
  if (rules.length === 0) throw new Error('RULEBOOK.md: no rules found');
  return { rules, untested };
}

/** A single-quoted string literal (the repository's TypeScript style). */
const quote = (text) => `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;

/**
 * The suite's catalogue module.
 *
 * @param {{ rules: { id: string, section: string, rule: string }[], untested: { id: string, reason: string }[] }} book
 * @returns {string}
 */
export function renderCatalogue(book) {
  const skip = new Set(book.untested.map((u) => u.id));
  const entry = (r) => `  { id: ${quote(r.id)}, section: ${quote(r.section)}, rule: ${quote(r.rule)} },`;
  const untested = book.untested.map((u) => {
    const r = book.rules.find((x) => x.id === u.id);
    return `  { id: ${quote(u.id)}, section: ${quote(r.section)}, rule: ${quote(r.rule)}, reason: ${quote(u.reason)} },`;
  });
  return [
    '// Generated from RULEBOOK.md (in @core/rate-limit-contract) by `pnpm --filter @core/rate-limit-conformance rulebook`.',
    '// Do not edit: change the rulebook and regenerate; a test fails while this file is stale.',
    '',
    '/**',
    " * The rules the suite tests, as data, in the rulebook's order and words. Every rule here has at least",
    ' * one test whose title starts with its id.',
    ' */',
    'export const RULES = [',
    ...book.rules.filter((r) => !skip.has(r.id)).map(entry),
    '] as const;',
    '',
    '/** A rule id the suite tests. */',
    "export type RuleId = (typeof RULES)[number]['id'];",
    '',
    '/** One entry of {@link RULES}. */',
    'export type Rule = (typeof RULES)[number];',
    '',
    '/** Rules of the rulebook the suite leaves to other tests, and why. */',
    'export const UNTESTED_RULES = [',
    ...untested,
    '] as const;',
    '',
  ].join('\n');
}

/**
 * The contract README's index of the rules: each section of the rulebook with the ids of its rules (every
 * rule, tested or not); their words are in the rulebook only.
 *
 * @param {{ rules: { id: string, section: string, rule: string }[] }} book
 * @returns {string}
 */
export function renderContractTable(book) {
  const sections = new Map();
  for (const r of book.rules) sections.set(r.section, [...(sections.get(r.section) ?? []), r.id]);
  const cell = (text) => text.replace(/\|/g, '\\|');
  return ['| Section of RULEBOOK.md | Rules |', '| --- | --- |', ...[...sections].map(([section, ids]) => `| ${cell(section)} | ${ids.join(', ')} |`)].join(
    '\n',
  );
}

/**
 * `readme` with the text between the rule-table markers replaced by `table`.
 *
 * @param {string} readme
 * @param {string} table
 * @returns {string}
 */
export function withTable(readme, table) {
  const from = readme.indexOf(TABLE_START);
  const to = readme.indexOf(TABLE_END);
  if (from < 0 || to < from) throw new Error('README.md lacks the rule-table markers');
  return `${readme.slice(0, from + TABLE_START.length)}\n${table}\n${readme.slice(to)}`;
}

function main() {
  const book = parseRulebook(readFileSync(RULEBOOK_URL, 'utf8'));
  const catalogue = renderCatalogue(book);
  const readme = withTable(readFileSync(CONTRACT_README_URL, 'utf8'), renderContractTable(book));
  if (process.argv.includes('--write')) {
    writeFileSync(CATALOGUE_URL, catalogue);
    writeFileSync(CONTRACT_README_URL, readme);
    return;
  }
  if (process.argv.includes('--check')) {
    const stale = [];
    if (readFileSync(CATALOGUE_URL, 'utf8') !== catalogue) stale.push('src/rule-catalogue.ts');
    if (readFileSync(CONTRACT_README_URL, 'utf8') !== readme) stale.push('the rule index of packages/rate-limit-contract/README.md');
    if (stale.length > 0) {
      console.error(`stale: ${stale.join(', ')}; run pnpm --filter @core/rate-limit-conformance rulebook`);
      process.exit(1);
    }
    return;
  }
  process.stdout.write(`${catalogue}\n${renderContractTable(book)}\n`);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main();
