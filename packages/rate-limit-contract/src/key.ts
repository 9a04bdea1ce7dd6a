/**
 * Identifies one bucket: a venue, a credential (or the public pool) and an axis.
 *
 * @remarks
 * - RL-K1: buckets differing in venue, credential or axis are independent; the public pool
 *   (`credential: null`) is separate from every credential.
 * - RL-K2: a key without an axis is the same bucket as the key with axis `"request"`.
 * - RL-K3: the credential is a secret. Implementations never show it raw in errors, logs,
 *   metrics, snapshots or storage key names; they use a one-way hash (SHA-256, optionally keyed
 *   with a configured secret) that is the same in every process sharing the buckets.
 *
 * A valid key has a non-empty `venue` and, when given, a non-empty `axis`, each at most 256
 * characters; `credential` is a non-empty string (at most 4096 characters) or `null`.
 *
 * @example
 * ```ts
 * const ipWeight: BucketKey = { venue: 'binance', credential: null, axis: 'ip' };
 * const orders: BucketKey = { venue: 'binance', credential: process.env.BINANCE_KEY ?? null, axis: 'orders_10s' };
 * ```
 */
export interface BucketKey {
  /** The venue's id, for example `"binance"` or `"okx"`. */
  readonly venue: string;
  /** The API key (a secret, hashed before it is stored anywhere) or `null` for the public pool. */
  readonly credential: string | null;
  /**
   * The venue's bucket on this credential: `"request"` (the default), `"ip"`, `"uid"`,
   * `"order_weight"`, or a partitioned name such as `"trade/order:BTC-USDT"`.
   */
  readonly axis?: string;
}

/** The axis a key without one stands for (RL-K2). */
export type DefaultAxis = 'request';
