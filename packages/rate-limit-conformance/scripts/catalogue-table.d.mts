export declare const CATALOGUE_START: string;
export declare const CATALOGUE_END: string;
/** The table of rules and the titles of their tests (skip reasons removed). */
export declare function renderTestTable(rules: readonly { readonly id: string; readonly section: string }[], titles: readonly string[]): string;
/** `doc` (CATALOGUE.md) with the text between the catalogue markers replaced by `table`. */
export declare function withCatalogue(doc: string, table: string): string;
