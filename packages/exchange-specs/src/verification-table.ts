import { handAuthoredSpecs } from './hand-authored.js';
import type { Provenance, VenueSpec } from './venue-spec.js';

/** How one hand-authored spec was verified, counted from its data. */
export interface VerificationRow {
  readonly id: string;
  /** When every number was last checked against the venue's documentation. */
  readonly checked: string | undefined;
  /** Provenances that quote the documentation (every bucket, endpoint, cost rule with its own source, header and error rule). */
  readonly quoted: number;
  /** Of those, what the documentation states exactly. */
  readonly documented: number;
  /** What the venue's staff stated outside the API documentation (support pages, announcements). */
  readonly observed: number;
  /** What the documentation does not settle: kept on the safe side and explained in the spec. */
  readonly uncertain: number;
  /** Numbers found wrong and corrected. */
  readonly corrected: number;
  /** Disagreements with a second source (ccxt, Hummingbot), each with a verdict. */
  readonly disagreements: number;
}

function provenances(spec: VenueSpec): Provenance[] {
  const out: Provenance[] = [];
  for (const b of spec.buckets) out.push(b.provenance);
  for (const e of spec.endpoints) {
    out.push(e.provenance);
    for (const c of [...e.costs, ...(e.publicCosts ?? [])]) if (c.provenance !== undefined) out.push(c.provenance);
  }
  for (const c of [...(spec.global ?? []), ...(spec.fallback?.costs ?? []), ...(spec.fallback?.publicCosts ?? [])])
    if (c.provenance !== undefined) out.push(c.provenance);
  if (spec.fallback !== undefined) out.push(spec.fallback.provenance);
  for (const f of spec.feedback ?? []) out.push(f.provenance);
  for (const r of spec.errors ?? []) out.push(r.provenance);
  return out;
}

/** The verification of every hand-authored spec, counted from the specs themselves. */
export function verificationRows(): readonly VerificationRow[] {
  return handAuthoredSpecs.map((spec) => {
    const all = provenances(spec);
    const count = (c: Provenance['confidence']): number => all.filter((p) => p.confidence === c).length;
    return {
      id: spec.id,
      checked: spec.verification?.checked,
      quoted: all.filter((p) => p.quote !== undefined).length,
      documented: count('documented'),
      observed: count('observed'),
      uncertain: count('uncertain'),
      corrected: spec.verification?.corrections.length ?? 0,
      disagreements: spec.verification?.crossChecks.length ?? 0,
    };
  });
}

/**
 * The README's verification table (markdown): per hand-authored spec, when it was checked against the
 * venue's documentation, how many of its provenances quote it, how many numbers are documented exactly,
 * stated by the venue's staff elsewhere, or unverifiable (kept on the safe side), how many were found
 * wrong and corrected, and how many disagreements with ccxt or Hummingbot were recorded with a verdict.
 */
export function verificationTable(): string {
  const rows = verificationRows();
  const total = (k: keyof Omit<VerificationRow, 'id' | 'checked'>): number => rows.reduce((s, r) => s + r[k], 0);
  return [
    '| Spec | Checked | Quoted | Documented | Staff-stated | Unverifiable (safe side) | Corrected | Disagreements with ccxt / Hummingbot |',
    '|---|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| \`${r.id}\` | ${r.checked ?? 'not yet'} | ${r.quoted} | ${r.documented} | ${r.observed} | ${r.uncertain} | ${r.corrected} | ${r.disagreements} |`,
    ),
    `| all ${rows.length} | | ${total('quoted')} | ${total('documented')} | ${total('observed')} | ${total('uncertain')} | ${total('corrected')} | ${total('disagreements')} |`,
  ].join('\n');
}
