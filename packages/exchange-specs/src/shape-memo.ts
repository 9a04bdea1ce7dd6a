import type { RequestParams } from './request-params.js';
import { sameOptions, type ChargeOptionValues, type ChargeOptions } from './resolve-memo.js';
import type { Identity } from './venue-io.js';
import type { VenueSpec } from './venue-spec.js';

/**
 * What pricing read of a request's parameters, in order: each name and what it read there. A list is not
 * kept (its items may be read one by one); any other object is kept as {@link AN_OBJECT}: pricing reads a
 * parameter as text, a number, a boolean or a list, and takes every other object alike, whatever it holds.
 */
interface Reads {
  readonly names: string[];
  readonly values: unknown[];
  /** Whether a list was read: the price is then not kept. */
  list: boolean;
}

/** How a parameter holding an object that is not a list is kept (see {@link Reads}), and how a list is read (never kept). */
const AN_OBJECT = Symbol('an object');
const A_LIST = Symbol('a list');

function kept(value: unknown): unknown {
  if (Array.isArray(value)) return A_LIST;
  return typeof value === 'object' && value !== null ? AN_OBJECT : value;
}

/** One price of an endpoint: the parameters it read and their values, and the result. */
interface Shape<T> {
  readonly names: readonly string[];
  readonly values: readonly unknown[];
  readonly result: T;
}

/** The prices of one identity and one set of charge options on a spec, by endpoint. */
interface Slot {
  readonly credential: string | null;
  readonly uid: string | undefined;
  readonly tier: string | undefined;
  readonly options: ChargeOptionValues;
  readonly byEndpoint: Map<object, Shape<unknown>[]>;
}

/** Identities and option sets kept per spec (a client uses one or two; one that varies them per request is not slowed by a growing list). */
const SLOTS_PER_SPEC = 16;
/** Endpoints kept per slot, and prices kept per endpoint (parameter values the price read: depth limits, symbols...). */
const ENDPOINTS_PER_SLOT = 512;
const SHAPES_PER_ENDPOINT = 32;

const slots = new WeakMap<VenueSpec, Slot[]>();

function chargeOptions(o: ChargeOptions): ChargeOptionValues {
  return {
    margin: o.margin,
    burstFraction: o.burstFraction,
    jitterMs: o.jitterMs,
    windowLimits: o.windowLimits,
    windowMargin: o.windowMargin,
    deferred: o.deferred,
    inFlightShare: o.inFlightShare,
  };
}

function slotOf(spec: VenueSpec, identity: Identity, options: ChargeOptions): Slot {
  let list = slots.get(spec);
  if (list === undefined) slots.set(spec, (list = []));
  for (const s of list) {
    if (s.credential === identity.credential && s.uid === identity.uid && s.tier === identity.tier && sameOptions(s.options, options)) return s;
  }
  const s: Slot = { credential: identity.credential, uid: identity.uid, tier: identity.tier, options: chargeOptions(options), byEndpoint: new Map() };
  if (list.length >= SLOTS_PER_SPEC) list.shift();
  list.push(s);
  return s;
}

/**
 * The price of a request on a matched endpoint, resolved once per shape: for the same spec, identity (its
 * credential, uid and tier), charge options and endpoint, a request whose parameters read the same where the
 * price read them gets the price resolved before (pricing reads nothing else of a request on a matched
 * endpoint, and reads the parameters in an order fixed by what it read before). `resolve` prices with the
 * parameters it is given and says whether its result may be kept (an error is priced again every time).
 * The result is shared by every request of the shape: read-only.
 */
export function priceByShape<T>(
  spec: VenueSpec,
  endpoint: object,
  params: RequestParams,
  identity: Identity,
  options: ChargeOptions,
  resolve: (params: RequestParams) => { readonly result: T; readonly keep: boolean },
): T {
  const slot = slotOf(spec, identity, options);
  let shapes = slot.byEndpoint.get(endpoint);
  if (shapes !== undefined) {
    for (const s of shapes) {
      let same = true;
      for (let i = 0; i < s.names.length && same; i++) same = Object.is(kept(params.get(s.names[i] as string)), s.values[i]);
      if (same) return s.result as T;
    }
  }
  const reads: Reads = { names: [], values: [], list: false };
  const recorded: RequestParams = {
    get(name: string): unknown {
      const v = params.get(name);
      const k = kept(v);
      reads.names.push(name);
      reads.values.push(k);
      if (k === A_LIST) reads.list = true;
      return v;
    },
  };
  const { result, keep } = resolve(recorded);
  if (!keep || reads.list) return result;
  if (shapes === undefined) {
    if (slot.byEndpoint.size >= ENDPOINTS_PER_SLOT) slot.byEndpoint.clear();
    slot.byEndpoint.set(endpoint, (shapes = []));
  }
  if (shapes.length >= SHAPES_PER_ENDPOINT) shapes.pop();
  shapes.unshift({ names: reads.names, values: reads.values, result });
  return result;
}
