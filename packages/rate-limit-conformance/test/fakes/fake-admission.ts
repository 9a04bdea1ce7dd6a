// How the fake limiter reads an admission (checks and options, with the flaws that misread them) and the answers it
// gives; the limiter itself is ./fake-limiter.ts.
import type { BucketCheck, Capabilities, CheckOptions, ErrorResult, RateLimitErrorCode, SideEffectResult } from '@core/rate-limit-contract';
import { mergeChecks, type ModelCheck, type ModelLimit } from '../../src/model-arithmetic.js';
import type { ModelOutcome } from '../../src/reference-model.js';
import type { FakeFlaws } from './fake-store.js';
import { checksNameReserve, namesClass, readBudget, readCheckReserve, readChecks, readClass, readOptions, type Refused } from './validate.js';

export function error(code: RateLimitErrorCode, message: string, extra: { retryAfterMs?: number; path?: string } = {}): ErrorResult {
  return { kind: 'error', error: { code, message, ...extra } };
}

export const DONE: SideEffectResult = { kind: 'ok' };
export const STORE_DOWN: ErrorResult = error('backend_unavailable', 'the store cannot be reached');
export const CLOSED: ErrorResult = error('closed', 'the limiter is closed');

export function refusal(outcome: Extract<ModelOutcome, { kind: 'invalid' | 'unpayable' }>): ErrorResult {
  if (outcome.kind === 'invalid') return error('invalid_parameters', outcome.message);
  return error('cost_unpayable', outcome.message, { path: outcome.path });
}

export function notSupported(capability: string, what = capability): ErrorResult {
  return error('not_supported', `${what} is not offered by this limiter (capabilities.${capability} is false)`);
}

/** What reading an admission needs of the fake: its manifest, its flaws, how it keeps a definition, how it refuses. */
export interface AdmissionContext {
  readonly capabilities: Capabilities;
  readonly flaws: FakeFlaws;
  shaped(limit: ModelLimit, scale: number): ModelLimit;
  refused(refused: Refused): ErrorResult;
}

/** An admission read and merged: its buckets, its budget, its class and the share it leaves free. */
export interface Admission {
  readonly merged: readonly ModelCheck[];
  readonly maxWaitMs: number | undefined;
  readonly cls: number;
  readonly free: number;
}

/** A limiter without priorities answers not_supported to a call naming a priority or reserve, whatever the rest (RL-Q5). */
export function classesRefused(ctx: AdmissionContext, options: unknown): boolean {
  return ctx.capabilities.priorities !== true && !ctx.flaws.priorityIgnoredSilently && namesClass(options);
}

/** Reads and merges the checks and options of an admission, or answers why not. */
export function readAdmission(ctx: AdmissionContext, checks: readonly BucketCheck[], options: CheckOptions | undefined): Admission | ErrorResult {
  if (classesRefused(ctx, options) || (ctx.capabilities.priorities !== true && !ctx.flaws.priorityIgnoredSilently && checksNameReserve(checks)))
    return notSupported('priorities', 'a priority or reserve');
  const opts = readOptions(options);
  if (!opts.ok) return ctx.refused(opts);
  const budget = readBudget(opts.value);
  if (!budget.ok) return ctx.refused(budget);
  // a limiter that claims no priorities but ignores them reads none (the flaw of RL-Q5)
  const cl = readClass(ctx.capabilities.priorities === true ? opts.value : undefined);
  if (!cl.ok) return ctx.refused(cl);
  let { cls, free } = cl.value;
  if (ctx.flaws.classesIgnored) [cls, free] = [1, 0];
  const read = readChecks(checks, {
    missingMeansUnlimited: ctx.flaws.missingLimitUnlimited,
    namesUnbounded: ctx.flaws.namesUnbounded,
    emptyChecksAdmitted: ctx.flaws.emptyChecksAdmitted,
  });
  if (!read.ok) return ctx.refused(read);
  // RL-Q6: a check's own reserve sets its bucket's share (read only by a limiter that offers classes)
  const withFree: (BucketCheck & { free?: number })[] = [];
  for (const [i, c] of read.value.entries()) {
    const { reserve, ...plain } = c;
    if (reserve === undefined || ctx.capabilities.priorities !== true) {
      withFree.push(plain);
      continue;
    }
    const f = readCheckReserve(reserve, cl.value.shares, cl.value.cls, `checks[${i}].reserve`);
    if (!f.ok) return ctx.refused(f);
    withFree.push(ctx.flaws.classesIgnored || ctx.flaws.checkReserveIgnored ? plain : { ...plain, free: f.value });
  }
  const scale = ctx.flaws.reserveCutsRate ? 1 - free : 1;
  if (scale !== 1) free = 0;
  const shaped = withFree.map((c) => (c.limit === null ? c : { ...c, limit: ctx.shaped(c.limit as ModelLimit, scale) }));
  const priced = ctx.flaws.priceAtOne ? shaped.map((c) => ({ ...c, cost: c.cost > 0 ? 1 : 0 })) : shaped;
  const merged = mergeChecks(priced);
  if ('invalid' in merged) return error('invalid_parameters', merged.invalid, { path: merged.path });
  return { merged, maxWaitMs: budget.value, cls, free };
}
