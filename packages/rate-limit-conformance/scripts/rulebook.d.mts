/** One rule of the rulebook: its id, its section and its text. */
export interface RulebookRule {
  readonly id: string;
  readonly section: string;
  readonly rule: string;
}

/** A parsed rulebook: every rule, and the rules the conformance suite does not test with the reason. */
export interface Rulebook {
  readonly rules: readonly RulebookRule[];
  readonly untested: readonly { readonly id: string; readonly reason: string }[];
}

export declare const RULEBOOK_URL: URL;
export declare const CATALOGUE_URL: URL;
export declare const CONTRACT_README_URL: URL;
export declare const TABLE_START: string;
export declare const TABLE_END: string;

/** Parses the rulebook strictly; throws with the line number on anything outside its fixed shape. */
export declare function parseRulebook(text: string): Rulebook;
/** The suite's catalogue module (src/rule-catalogue.ts). */
export declare function renderCatalogue(book: Rulebook): string;
/** The contract README's index of the rules: each section's rule ids. */
export declare function renderContractTable(book: Rulebook): string;
/** `readme` with the text between the rule-table markers replaced by `table`. */
export declare function withTable(readme: string, table: string): string;
