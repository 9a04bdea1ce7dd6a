export declare const CATALOGUE_START: string;
export declare const CATALOGUE_END: string;
/** The table of rules and the titles of their tests (skip reasons removed). */
export declare function renderTestTable(rules: readonly { readonly id: string; readonly rule: string }[], titles: readonly string[]): string;
/** `readme` with the text between the catalogue markers replaced by `table`. */
export declare function withCatalogue(readme: string, table: string): string;
