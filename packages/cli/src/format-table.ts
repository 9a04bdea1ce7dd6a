/**
 * Lays out rows as a plain-text table: a header, a rule, then the rows; columns padded to their
 * widest cell, numbers (cells that start with a digit, a sign or a dash placeholder) right-aligned.
 */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const numeric = header.map((_, i) => rows.length > 0 && rows.every((r) => /^[-+<]?[\d.]|^n\/a$|^-$/.test(r[i] ?? '')));
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => (numeric[i] === true ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}
