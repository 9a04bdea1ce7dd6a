import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CATALOGUE_URL, CONTRACT_README_URL, RULEBOOK_URL, parseRulebook, renderCatalogue, renderContractTable, withTable } from '../scripts/rulebook.mjs';
import { RULES, UNTESTED_RULES } from '../src/rule-catalogue.js';

const REGENERATE = 'regenerate: pnpm --filter @core/rate-limit-conformance rulebook';
const rulebook = readFileSync(RULEBOOK_URL, 'utf8');

/** A minimal valid rulebook, to break one line at a time. */
const SMALL = [
  '# The rulebook',
  '',
  '## Terms',
  '',
  '- **key**: a bucket.',
  '',
  '## Keys and limits',
  '',
  '- **RL-K1** One rule.',
  '- **RL-K2** Another rule.',
  '',
  '## The host contract',
  '',
  'Adapters call a provider-level contract.',
  '',
  '- **RL-P1** A host rule.',
  '',
  '## Outside the conformance suite',
  '',
  '- **RL-P1** Not a limiter property.',
  '',
].join('\n');

describe('the rulebook is the one source of the rules', () => {
  it(`the suite's catalogue is generated from the current rulebook (${REGENERATE})`, () => {
    expect(readFileSync(CATALOGUE_URL, 'utf8')).toBe(renderCatalogue(parseRulebook(rulebook)));
  });

  it(`the contract README's rule index is generated from the current rulebook (${REGENERATE})`, () => {
    const readme = readFileSync(CONTRACT_README_URL, 'utf8');
    expect(withTable(readme, renderContractTable(parseRulebook(rulebook)))).toBe(readme);
  });

  it('every rule of the rulebook is in the catalogue, tested or listed as untested with a reason', () => {
    const book = parseRulebook(rulebook);
    const listed = [...RULES.map((r) => r.id), ...UNTESTED_RULES.map((r) => r.id)].sort();
    expect(listed).toEqual(book.rules.map((r) => r.id).sort());
    expect(book.rules.length).toBeGreaterThanOrEqual(40);
    for (const r of UNTESTED_RULES) expect(r.reason.length).toBeGreaterThan(0);
  });

  it('the parser reads the fixed shape: sections, one rule per line, untested rules', () => {
    const book = parseRulebook(SMALL);
    expect(book.rules).toEqual([
      { id: 'RL-K1', section: 'Keys and limits', rule: 'One rule.' },
      { id: 'RL-K2', section: 'Keys and limits', rule: 'Another rule.' },
      { id: 'RL-P1', section: 'The host contract', rule: 'A host rule.' },
    ]);
    expect(book.untested).toEqual([{ id: 'RL-P1', reason: 'Not a limiter property.' }]);
  });

  const broken: readonly [string, string, RegExp][] = [
    ['a rule spread over two lines', SMALL.replace('- **RL-K1** One rule.', '- **RL-K1** One\n  rule.'), /prose after the rules|not a rule line/],
    ['a rule line without bold id', SMALL.replace('- **RL-K2** Another rule.', '- RL-K2 Another rule.'), /not a rule line/],
    ['a duplicate id', SMALL.replace('- **RL-K2** Another rule.', '- **RL-K1** Another rule.'), /defined twice/],
    ['a gap in the numbering', SMALL.replace('- **RL-K2** Another rule.', '- **RL-K3** Another rule.'), /out of order/],
    ['a letter in two sections', SMALL.replace('- **RL-P1** A host rule.', '- **RL-K3** A host rule.'), /belong to "Keys and limits"/],
    ['a rule among the terms', SMALL.replace('- **key**: a bucket.', '- **RL-T1** a bucket.'), /outside a rule section/],
    ['a sub-heading', SMALL.replace('## Keys and limits', '### Keys and limits'), /only sections/],
    [
      'an untested id that is no rule',
      SMALL.replace('- **RL-P1** Not a limiter property.', '- **RL-P9** Not a limiter property.'),
      /not a rule of the rulebook/,
    ],
    ['trailing whitespace', SMALL.replace('- **RL-K2** Another rule.', '- **RL-K2** Another rule. '), /trailing whitespace/],
    ['no title', SMALL.replace('# The rulebook', 'The rulebook'), /starts with its title/],
  ];
  for (const [what, text, error] of broken) {
    it(`the parser refuses ${what}`, () => {
      expect(() => parseRulebook(text)).toThrow(error);
    });
  }

  it('the rulebook, the model, both READMEs and the catalogue cite only files the repository holds', () => {
    const contract = new URL('../../rate-limit-contract/', import.meta.url);
    const docs = [
      RULEBOOK_URL,
      new URL('MODEL.md', contract),
      CONTRACT_README_URL,
      new URL('../README.md', import.meta.url),
      new URL('../CATALOGUE.md', import.meta.url),
    ];
    for (const doc of docs) {
      const text = readFileSync(doc, 'utf8');
      for (const [, target] of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (target === undefined || /^[a-z]+:/.test(target)) continue;
        expect(existsSync(new URL(target, doc)), `${doc.pathname} links to ${target}`).toBe(true);
      }
      // a markdown file named anywhere (a link or a mention) is next to the document or in the contract package
      for (const [name] of text.matchAll(/[\w./-]*\w\.md\b/g)) {
        expect(existsSync(new URL(name, doc)) || existsSync(new URL(name, contract)), `${doc.pathname} names ${name}`).toBe(true);
      }
    }
  });
});
