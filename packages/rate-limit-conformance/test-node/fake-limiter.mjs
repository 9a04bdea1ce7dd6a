// The conformance suite's correct fake in plain JavaScript: a small in-memory limiter built on the
// reference model that @core/rate-limit-conformance exports, with fault hooks, a peer sharing its
// store, and the host contract over it. It is the node:test example's subject
// (test/fakes/*.ts are the TypeScript originals, which also carry the self-test's deliberate flaws).
import { createHash } from 'node:crypto';
import { ReferenceModel, mergeChecks, normalizeLimit } from '@core/rate-limit-conformance';

/** Why a key is malformed (never showing the credential), or undefined. */
function badKey(key, path) {
    if (typeof key !== 'object' || key === null)
        return `${path} must be an object`;
    const { venue, credential, axis } = key;
    if (typeof venue !== 'string' || venue.length === 0 || venue.length > 256)
        return `${path}.venue must be a non-empty string of at most 256 characters`;
    if (credential !== null && (typeof credential !== 'string' || credential.length === 0 || credential.length > 4096)) {
        return `${path}.credential must be null or a non-empty string of at most 4096 characters`;
    }
    if (axis !== undefined && (typeof axis !== 'string' || axis.length === 0 || axis.length > 256))
        return `${path}.axis must be a non-empty string of at most 256 characters`;
    return undefined;
}
/** Why a cost is malformed, or undefined. */
function badCost(cost, path) {
    if (typeof cost !== 'number' || !Number.isFinite(cost) || cost < 0)
        return `${path} must be a finite number >= 0, got ${String(cost)}`;
    return undefined;
}
/** Why a list of checks is malformed, or undefined. */
function badChecks(checks) {
    if (!Array.isArray(checks) || checks.length === 0)
        return 'checks must be a non-empty array';
    for (const [i, check] of checks.entries()) {
        if (typeof check !== 'object' || check === null)
            return `checks[${i}] must be an object`;
        const c = check;
        const why = badKey(c.key, `checks[${i}].key`) ?? badCost(c.cost, `checks[${i}].cost`);
        if (why !== undefined)
            return why;
        if (normalizeLimit(c.limit) === 'invalid')
            return `checks[${i}].limit is not a valid limit`;
    }
    return undefined;
}
/** Why a wait budget is malformed, or undefined. */
function badBudget(maxWaitMs) {
    if (maxWaitMs === undefined)
        return undefined;
    if (typeof maxWaitMs !== 'number' || !Number.isFinite(maxWaitMs) || maxWaitMs <= 0)
        return `maxWaitMs must be a finite number > 0, got ${String(maxWaitMs)}`;
    return undefined;
}
/** Whether `key` is a valid key. */
function isKey(key) {
    return badKey(key, 'key') === undefined;
}

const CAPABILITIES = {
    distributed: true,
    injectableClock: true,
    bookings: true,
    abortSignal: true,
    fractionalCosts: true,
    snapshot: true,
    sync: true,
    penalize: true,
};
function error(code, message, retryAfterMs) {
    return { kind: 'error', error: retryAfterMs === undefined ? { code, message } : { code, message, retryAfterMs } };
}
const DONE = { kind: 'ok' };
const STORE_DOWN = error('backend_unavailable', 'the store cannot be reached');
/** What limiters sharing one "store" share: the buckets, and whether the store can be reached. */
export class FakeStore {
    model = new ReferenceModel();
    /** The store is unreachable (a fault hook of the subject). */
    broken = false;
    /** Records kept while the store is unreachable (bounded) and how many were dropped. */
    buffered = [];
    dropped = 0;
    /** Makes the store reachable again and replays the buffered records. */
    repair(now) {
        this.broken = false;
        for (const r of this.buffered.splice(0))
            this.model.record(r.key, r.cost, r.limit, now);
    }
    /** The names the buckets are stored under: venue, hashed credential, axis (RL-K3). */
    keyNames(now) {
        return this.model.snapshot(now).map((b) => [b.key.venue, hashCredential(b.key.credential), b.key.axis].join(':'));
    }
}
function hashCredential(credential) {
    return credential === null ? null : createHash('sha256').update(credential).digest('hex');
}
/** A small in-memory limiter built on the suite's reference model. */
export class FakeLimiter {
    specificationVersion = 'v1';
    capabilities;
    #store;
    #model;
    #clock;
    #waiters = new Set();
    #closed = false;
    constructor(clock, store) {
        this.capabilities = Object.freeze({ ...CAPABILITIES });
        this.#store = store;
        this.#model = store.model;
        this.#clock = clock;
    }
    async checkRate(key, limit, cost, options) {
        return this.checkRates([{ key, limit, cost }], options);
    }
    async checkRates(checks, options) {
        const refused = this.#refuse(checks, options);
        if (refused !== undefined)
            return refused;
        if (this.#store.broken)
            return this.#unreachable();
        const merged = this.#merge(checks);
        if ('kind' in merged)
            return merged;
        const now = this.#clock.now();
        const outcome = this.#model.check(merged, now, options?.maxWaitMs);
        switch (outcome.kind) {
            case 'invalid':
                return error('invalid_parameters', outcome.message);
            case 'unpayable':
                return error('cost_unpayable', outcome.message);
            case 'wait':
                return { kind: 'delay', retryAfterMs: outcome.retryAfterMs };
            case 'ok':
                return { kind: 'ok', waitMs: outcome.waitMs, sendAtMs: outcome.sendAtMs };
        }
    }
    async peek(checks) {
        const refused = this.#refuse(checks, undefined);
        if (refused !== undefined)
            return refused;
        if (this.#store.broken)
            return this.#unreachable();
        const merged = this.#merge(checks);
        if ('kind' in merged)
            return merged;
        const now = this.#clock.now();
        const outcome = this.#model.check(merged, now, undefined, true);
        if (outcome.kind === 'ok')
            return { kind: 'ok', waitMs: 0, sendAtMs: now };
        if (outcome.kind === 'wait')
            return { kind: 'delay', retryAfterMs: outcome.retryAfterMs };
        return error(outcome.kind === 'unpayable' ? 'cost_unpayable' : 'invalid_parameters', outcome.message);
    }
    async waitForCapacity(checks, options) {
        const maxWaitMs = options?.maxWaitMs ?? 10_000;
        const refused = this.#refuse(checks, { maxWaitMs });
        if (refused !== undefined)
            return refused;
        const signal = options?.signal;
        if (signal !== undefined && !(signal instanceof AbortSignal))
            return error('invalid_parameters', 'signal must be an AbortSignal');
        if (signal?.aborted)
            return error('aborted', 'the wait was aborted before it started');
        if (this.#store.broken)
            return this.#unreachable();
        const merged = this.#merge(checks);
        if ('kind' in merged)
            return merged;
        const now = this.#clock.now();
        const outcome = this.#model.check(merged, now, maxWaitMs);
        if (outcome.kind === 'invalid')
            return error('invalid_parameters', outcome.message);
        if (outcome.kind === 'unpayable')
            return error('cost_unpayable', outcome.message);
        if (outcome.kind === 'wait') {
            return error('rate_limit_timeout', `the wait of ${outcome.retryAfterMs} ms exceeds the budget of ${maxWaitMs} ms`, outcome.retryAfterMs);
        }
        const ok = { kind: 'ok', waitMs: outcome.waitMs, sendAtMs: outcome.sendAtMs };
        if (outcome.waitMs <= 0)
            return ok;
        return new Promise((resolve) => {
            const onAbort = () => {
                this.#model.cancel(outcome.booking);
                waiter.finish(error('aborted', 'the wait was aborted'));
            };
            const waiter = {
                timer: this.#clock.setTimer(() => waiter.finish(ok), outcome.waitMs),
                finish: (decision) => {
                    waiter.timer.cancel();
                    signal?.removeEventListener('abort', onAbort);
                    this.#waiters.delete(waiter);
                    resolve(decision);
                },
            };
            waiter.timer.unref?.();
            signal?.addEventListener('abort', onAbort, { once: true });
            this.#waiters.add(waiter);
        });
    }
    record(key, cost, limit) {
        try {
            if (this.#closed || !isKey(key) || badCost(cost, 'cost') !== undefined || normalizeLimit(limit) === 'invalid') {
                this.#store.dropped++;
                return;
            }
            if (this.#store.broken) {
                if (this.#store.buffered.length >= 1000)
                    this.#store.dropped++;
                else
                    this.#store.buffered.push({ key, cost, limit });
                return;
            }
            this.#model.record(key, cost, limit, this.#clock.now());
        }
        catch {
            this.#store.dropped++;
        }
    }
    async sync(key, limit, minBorrowed) {
        const why = badKey(key, 'key') ?? badCost(minBorrowed, 'minBorrowed');
        if (why !== undefined)
            return error('invalid_parameters', why);
        const normalized = normalizeLimit(limit);
        if (normalized === 'invalid')
            return error('invalid_parameters', 'limit is not a valid limit');
        if (this.#closed)
            return error('closed', 'the limiter is closed');
        if (this.#store.broken)
            return STORE_DOWN;
        if (normalized !== null)
            this.#model.sync(key, normalized, minBorrowed, this.#clock.now());
        return DONE;
    }
    async penalize(key, hold) {
        const why = badKey(key, 'key');
        if (why !== undefined)
            return error('invalid_parameters', why);
        const until = typeof hold === 'object' && hold !== null ? ('forMs' in hold ? this.#clock.now() + hold.forMs : hold.untilMs) : Number.NaN;
        if (!Number.isFinite(until))
            return error('invalid_parameters', 'hold must be { untilMs } or { forMs } with a finite number');
        if (this.#closed)
            return error('closed', 'the limiter is closed');
        if (this.#store.broken)
            return STORE_DOWN;
        this.#model.penalize(key, until);
        return DONE;
    }
    async borrowed(key) {
        const why = badKey(key, 'key');
        if (why !== undefined)
            return error('invalid_parameters', why);
        if (this.#store.broken)
            return STORE_DOWN;
        return this.#model.borrowed(key, this.#clock.now());
    }
    async reset(key) {
        const why = badKey(key, 'key');
        if (why !== undefined)
            return error('invalid_parameters', why);
        if (this.#store.broken)
            return STORE_DOWN;
        this.#model.reset(key);
        return DONE;
    }
    async resetVenue(venue) {
        if (typeof venue !== 'string' || venue.length === 0)
            return error('invalid_parameters', 'venue must be a non-empty string');
        if (this.#store.broken)
            return STORE_DOWN;
        this.#model.resetVenue(venue);
        return DONE;
    }
    async resetAll() {
        if (this.#store.broken)
            return STORE_DOWN;
        this.#model.resetAll();
        return DONE;
    }
    async snapshot() {
        if (this.#store.broken)
            return [];
        return this.#model.snapshot(this.#clock.now()).map((b) => ({
            venue: b.key.venue,
            credentialHash: hashCredential(b.key.credential),
            axis: b.key.axis,
            capacity: b.limit.capacity,
            refillPerSec: b.limit.refillPerSec,
            tokens: b.tokens,
            borrowed: b.borrowed,
        }));
    }
    async close() {
        this.#closed = true;
        for (const waiter of [...this.#waiters])
            waiter.finish(error('closed', 'the limiter was closed while waiting'));
    }
    #refuse(checks, options) {
        if (this.#closed)
            return error('closed', 'the limiter is closed');
        if (options !== undefined && (typeof options !== 'object' || options === null))
            return error('invalid_parameters', 'options must be an object');
        const why = badChecks(checks) ?? badBudget(options?.maxWaitMs);
        return why === undefined ? undefined : error('invalid_parameters', why);
    }
    #merge(checks) {
        const merged = mergeChecks(checks);
        return 'invalid' in merged ? error('invalid_parameters', merged.invalid) : merged;
    }
    #unreachable() {
        return error('backend_unavailable', 'the store cannot be reached');
    }
}
/** A conformance subject around a {@link FakeLimiter}, with fault hooks, a peer and its key names. */
export function createFakeSubject(clock) {
    const store = new FakeStore();
    return {
        limiter: new FakeLimiter(clock, store),
        breakStore: () => {
            store.broken = true;
        },
        repairStore: () => {
            store.repair(clock.now());
        },
        peer: () => new FakeLimiter(clock, store),
        storageKeys: () => store.keyNames(clock.now()),
    };
}

/**
 * The host contract over any bucket-level limiter, plainly: one bucket per provider and credential,
 * `check` and `acquire` peek (they never consume), `record` records, `penalize` penalizes.
 */
export function createFakeProvider(limiter, clock, limits) {
    const keyOf = (provider, options) => ({
        venue: provider,
        credential: options?.credential ?? null,
        axis: 'request',
    });
    const check = async (provider, weight, options) => {
        if (!Object.hasOwn(limits, provider))
            return { kind: 'error', error: { code: 'invalid_parameters', message: `unknown provider ${provider}` } };
        const d = await limiter.peek([{ key: keyOf(provider, options), limit: limits[provider], cost: weight }]);
        if (d.kind === 'ok')
            return { kind: 'ok' };
        if (d.kind === 'delay')
            return { kind: 'rate_limited', retryAfterMs: d.retryAfterMs };
        return d;
    };
    return {
        check,
        async acquire(provider, weight, options) {
            const timeoutMs = options?.timeoutMs ?? 30_000;
            const started = clock.now();
            for (;;) {
                const room = await check(provider, weight, options);
                if (room.kind !== 'rate_limited')
                    return room;
                const waited = clock.now() - started;
                if (waited + room.retryAfterMs > timeoutMs) {
                    return { kind: 'error', error: { code: 'rate_limit_timeout', message: `needs ${room.retryAfterMs} ms more than the ${timeoutMs} ms timeout allows`, retryAfterMs: room.retryAfterMs } };
                }
                const aborted = await new Promise((resolve) => {
                    const signal = options?.signal;
                    if (signal?.aborted)
                        return resolve(true);
                    const onAbort = () => {
                        timer.cancel();
                        resolve(true);
                    };
                    const timer = clock.setTimer(() => {
                        signal?.removeEventListener('abort', onAbort);
                        resolve(false);
                    }, room.retryAfterMs);
                    signal?.addEventListener('abort', onAbort, { once: true });
                });
                if (aborted)
                    return { kind: 'error', error: { code: 'aborted', message: 'acquire was aborted' } };
            }
        },
        record(provider, weight, options) {
            if (!Object.hasOwn(limits, provider))
                return;
            limiter.record(keyOf(provider, options), weight, limits[provider]);
        },
        async penalize(provider, retryAfterMs, options) {
            await limiter.penalize(keyOf(provider, options), { forMs: retryAfterMs });
        },
    };
}
