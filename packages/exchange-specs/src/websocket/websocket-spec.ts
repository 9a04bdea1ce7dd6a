/**
 * The schema of a venue's documented WebSocket limits. A {@link WebSocketSpec} is plain data (one
 * TypeScript data module per venue in `src/websocket/venues/`), checked at load by
 * `validateWebSocketSpec`, with the same evidence per number as a REST `VenueSpec`: every bucket,
 * cap and request mapping names its source and quotes the documentation's sentence.
 */
import type { Provenance, Source, TokenBucketSpec, Verification, WindowBucketSpec } from '../venue-spec.js';

/**
 * Who a WebSocket bucket or cap belongs to: the REST scopes (`ip`, `uid`, `key`, `subaccount`) and
 * `connection`, one bucket per open connection (a venue's per-connection message limit).
 */
export type WebSocketScope = 'ip' | 'uid' | 'key' | 'subaccount' | 'connection';

/**
 * What a message sent to the venue is, for the buckets that count only some kinds:
 * - `subscribe`, `unsubscribe`, `login`: the venue's control requests.
 * - `request`: a WebSocket API request (order entry, queries), priced on the REST buckets too.
 * - `ping`, `pong`: application-level heartbeats (a JSON `ping` op, the text `ping`).
 * - `ping-frame`, `pong-frame`: the protocol's control frames (Binance counts them as messages).
 * - `other`: anything else.
 */
export type MessageKind = 'subscribe' | 'unsubscribe' | 'login' | 'request' | 'ping' | 'pong' | 'ping-frame' | 'pong-frame' | 'other';

/** Every message kind, in a stable order. */
export const MESSAGE_KINDS: readonly MessageKind[] = ['subscribe', 'unsubscribe', 'login', 'request', 'ping', 'pong', 'ping-frame', 'pong-frame', 'other'];

/** A window bucket of WebSocket traffic (connection attempts, messages): like a REST window bucket, without partitions. */
export interface WebSocketWindowBucketSpec extends Omit<WindowBucketSpec, 'scope' | 'partition' | 'tiers'> {
  readonly scope: WebSocketScope;
}

/** A token bucket of WebSocket traffic. */
export interface WebSocketTokenBucketSpec extends Omit<TokenBucketSpec, 'scope' | 'partition' | 'tiers'> {
  readonly scope: WebSocketScope;
}

/**
 * A rate limit on WebSocket traffic: connection attempts per IP or account, messages per connection
 * or per IP. Its limiter key is `{ venue: spec id, credential, axis: 'ws:<id>' }` (plus
 * `:<connection id>` for `connection` scope), so it never collides with a REST bucket.
 */
export type WebSocketBucketSpec = WebSocketWindowBucketSpec | WebSocketTokenBucketSpec;

/**
 * A cap: not a rate but a count that may not be exceeded at any moment.
 * - `connections`: open connections at once (per `scope`, over every endpoint that lists the cap).
 * - `subscriptions`: topics subscribed at once (per `scope`: one connection, or every connection of
 *   the IP or account that lists the cap).
 * - `topics-per-message`: topics one subscribe or unsubscribe message may carry.
 * - `message-bytes`: the size of one message in bytes (UTF-8), for the listed `kinds` (every kind
 *   when absent).
 */
export interface WebSocketCapSpec {
  readonly id: string;
  readonly counts: 'connections' | 'subscriptions' | 'topics-per-message' | 'message-bytes';
  readonly scope: WebSocketScope;
  readonly limit: number;
  readonly kinds?: readonly MessageKind[];
  readonly description?: string;
  readonly provenance: Provenance;
}

/** A cost on one of the WebSocket spec's own buckets. */
export interface WebSocketCharge {
  readonly bucket: string;
  readonly cost: number;
  readonly provenance?: Provenance;
}

/** A cost on a bucket of the REST spec (by its id): Binance's WebSocket API connection costs REST weight. */
export interface RestCharge {
  readonly restBucket: string;
  readonly cost: number;
  readonly provenance?: Provenance;
}

/**
 * Which messages a WebSocket bucket counts: every message (protocol ping and pong frames included)
 * when `kinds` is absent, else only the listed kinds.
 */
export interface MessageRule {
  readonly bucket: string;
  readonly kinds?: readonly MessageKind[];
  readonly cost: number;
  readonly provenance?: Provenance;
}

/**
 * A WebSocket API operation that spends REST buckets, priced by the REST spec's own rules so REST
 * and WebSocket traffic of one IP or account share the same limiter keys:
 * - `endpoint`: the REST endpoint it is equivalent to (an id of the REST spec), priced by
 *   `resolveRequest` with the operation's parameters as the request's body (path parameters
 *   filled from them).
 * - `rest`: fixed costs on REST buckets, for operations without a REST equivalent (Binance
 *   `session.logon` costs 2 weight).
 * - `excludeRestBuckets`: REST buckets the endpoint charges that the WebSocket request does not
 *   (Bybit's HTTP IP limit applies to `api.bybit.com` only).
 * - `paramsPath`: where the REST-equivalent parameters are in the message (dot path; `''` is the
 *   message itself): `params` (Binance), `args.0` (OKX single order, Bybit), `args` (OKX batches).
 */
export interface WebSocketOperationSpec {
  readonly operation: string;
  readonly endpoint?: string;
  readonly rest?: readonly RestCharge[];
  readonly excludeRestBuckets?: readonly string[];
  readonly paramsPath?: string;
  readonly provenance: Provenance;
  readonly note?: string;
}

/**
 * How the venue's JSON messages name their operation and topics, so a message can be classified
 * (kind, operation, topics) the same way by a client and by an emulator.
 * - `operationPath`: where the operation name is (`method`, `op`, `type`, `event`).
 * - `subscribe`, `unsubscribe`, `login`, `ping`, `pong`: the operation names of those kinds.
 * - `topicsPath`: where a subscribe message's topics are; `topicList` says how to read them:
 *   `items` (an array, one topic per element; a single object or string is one topic) or
 *   `comma-after-colon` (KuCoin's `/market/ticker:BTC-USDT,ETH-USDT`, one topic per symbol);
 *   `topicPrefixPath` names a value that prefixes every topic (the channel of Kraken and Gate).
 * - `text`: plain-text messages (not JSON) and their kind (OKX and Bitget's `ping`).
 */
export interface MessageFormat {
  readonly operationPath: string;
  readonly subscribe?: readonly string[];
  readonly unsubscribe?: readonly string[];
  readonly login?: readonly string[];
  readonly ping?: readonly string[];
  readonly pong?: readonly string[];
  readonly topicsPath?: string;
  readonly topicList?: 'items' | 'comma-after-colon';
  /** A value prefixed to each topic (Kraken's and Gate's channel name). */
  readonly topicPrefixPath?: string;
  readonly text?: Readonly<Record<string, MessageKind>>;
}

/** One WebSocket service of a venue (a base URL): market streams, the WebSocket API, order entry. */
export interface WebSocketEndpointSpec {
  /** Unique within the spec, e.g. `market-streams`, `ws-api`, `public`, `private`. */
  readonly id: string;
  /** The documented production URL. */
  readonly url: string;
  readonly auth: 'public' | 'private';
  readonly description?: string;
  /** Charged when a connection is attempted (successful or not). */
  readonly connect: {
    readonly charges: readonly WebSocketCharge[];
    readonly rest?: readonly RestCharge[];
    readonly provenance?: Provenance;
  };
  /** What each outgoing message costs on the WebSocket buckets. */
  readonly messages: readonly MessageRule[];
  /** Ids of the spec's caps that apply to this endpoint. */
  readonly caps?: readonly string[];
  /** WebSocket API operations that also spend REST buckets. */
  readonly operations?: readonly WebSocketOperationSpec[];
  readonly format?: MessageFormat;
  /**
   * How often the server sends protocol ping frames, ms, when documented: a client that cannot
   * route the automatic pong through its buckets (a browser's WebSocket) keeps room for them.
   */
  readonly serverPingIntervalMs?: number;
  /** The documented longest life of a connection, ms (Binance: 24 hours). */
  readonly maxLifetimeMs?: number;
}

/** A venue's documented WebSocket limits, keyed by the same id as its REST spec. */
export interface WebSocketSpec {
  /**
   * The REST spec's id (`binance-spot`): the `venue` of every limiter key, REST and WebSocket alike,
   * and the spec whose buckets `RestCharge`s and operations spend.
   */
  readonly id: string;
  readonly venue: string;
  readonly product: string;
  readonly origin: 'hand-authored';
  readonly sources: Readonly<Record<string, Source>>;
  readonly buckets: readonly WebSocketBucketSpec[];
  readonly caps?: readonly WebSocketCapSpec[];
  readonly endpoints: readonly WebSocketEndpointSpec[];
  /** How the numbers were verified; every provenance then quotes the documentation. */
  readonly verification: Verification;
  readonly notes?: readonly string[];
}
