import type { ClassifiedMessage, Identity, OutgoingMessage, WebSocketCapSpec, WebSocketSpec } from '@core/exchange-specs';
import type { Fail } from './admission.js';
import type { CapRegistry } from './cap-registry.js';

/** A subscribe message sent, and the topics it still stands for (re-sent after a reconnect). */
export interface SentSubscription {
  readonly message: OutgoingMessage;
  readonly topics: Set<string>;
}

/** The registry key of a cap for an identity, or `undefined` for per-connection caps. */
function capKey(spec: WebSocketSpec, cap: WebSocketCapSpec, identity: Identity): string | undefined {
  switch (cap.scope) {
    case 'connection':
      return undefined;
    case 'ip':
      return `${spec.id}\u0000${cap.id}\u0000ip`;
    case 'uid':
      return `${spec.id}\u0000${cap.id}\u0000${identity.uid ?? identity.credential ?? 'public'}`;
    case 'key':
    case 'subaccount':
      return `${spec.id}\u0000${cap.id}\u0000${identity.credential ?? 'public'}`;
  }
}

/**
 * What one client holds against its endpoint's caps: a connection's place under the open-connection
 * caps, the topics subscribed (on the connection, and in the IP or account caps of the registry), and
 * the subscribe messages re-sent after a reconnect; and the checks of a message's size and topics.
 */
export class CapBook {
  readonly #spec: WebSocketSpec;
  readonly #caps: readonly WebSocketCapSpec[];
  readonly #identity: Identity;
  readonly #registry: CapRegistry;
  readonly #fail: Fail;
  readonly #subscriptions = new Set<string>();
  readonly #sent: SentSubscription[] = [];
  /** Registry keys and counts of the subscriptions held in IP or account caps. */
  readonly #heldSubscriptions = new Map<string, number>();

  constructor(spec: WebSocketSpec, caps: readonly WebSocketCapSpec[], identity: Identity, registry: CapRegistry, fail: Fail) {
    this.#spec = spec;
    this.#caps = caps;
    this.#identity = identity;
    this.#registry = registry;
    this.#fail = fail;
  }

  /** The topics subscribed now. */
  get subscriptions(): ReadonlySet<string> {
    return this.#subscriptions;
  }

  /** The subscribe messages whose topics are still subscribed, to send again after a reconnect. */
  resendable(): readonly SentSubscription[] {
    return [...this.#sent];
  }

  /** Reserves the connection caps for one more connection; returns the keys, or throws `connection_cap`. */
  reserveConnection(): string[] {
    const keys: string[] = [];
    for (const cap of this.#caps) {
      if (cap.counts !== 'connections') continue;
      const key = capKey(this.#spec, cap, this.#identity);
      if (key === undefined) continue;
      if (!this.#registry.reserve(key, 1, cap.limit)) {
        this.releaseConnection(keys);
        throw this.#fail(
          'connection_cap',
          `${this.#registry.count(key)} connections are open against cap "${cap.id}" (this process may hold ${this.#registry.allowance(cap.limit)} of ${cap.limit}, ${cap.scope}); close one first`,
        );
      }
      keys.push(key);
    }
    return keys;
  }

  /** Gives back a connection's place under the caps of `keys` (from {@link reserveConnection}). */
  releaseConnection(keys: readonly string[]): void {
    for (const k of keys) this.#registry.release(k, 1);
  }

  /** Counts the URL's own topics against the caps, once. */
  holdInitialTopics(initial: readonly string[] | undefined): void {
    const topics = [...new Set(initial ?? [])];
    if (topics.length === 0) return;
    this.reserveSubscriptions(topics);
    for (const t of topics) this.#subscriptions.add(t);
  }

  /** The topics of a subscribe message not subscribed yet. */
  fresh(topics: readonly string[]): string[] {
    return [...new Set(topics)].filter((t) => !this.#subscriptions.has(t));
  }

  /** Reserves new topics against the subscription caps; throws `subscription_cap` beyond them. Answers the undo. */
  reserveSubscriptions(topics: readonly string[]): () => void {
    const taken: [string, number][] = [];
    const undo = (): void => {
      for (const [k, n] of taken) {
        this.#registry.release(k, n);
        const left = (this.#heldSubscriptions.get(k) ?? 0) - n;
        if (left > 0) this.#heldSubscriptions.set(k, left);
        else this.#heldSubscriptions.delete(k);
      }
    };
    if (topics.length === 0) return undo;
    for (const cap of this.#caps) {
      if (cap.counts !== 'subscriptions') continue;
      const key = capKey(this.#spec, cap, this.#identity);
      if (key === undefined) {
        if (this.#subscriptions.size + topics.length > cap.limit) {
          undo();
          throw this.#fail(
            'subscription_cap',
            `${topics.length} new topic(s) would make ${this.#subscriptions.size + topics.length} on this connection; cap "${cap.id}" allows ${cap.limit}`,
          );
        }
        continue;
      }
      if (!this.#registry.reserve(key, topics.length, cap.limit)) {
        undo();
        throw this.#fail(
          'subscription_cap',
          `${topics.length} new topic(s) would make ${this.#registry.count(key) + topics.length} against cap "${cap.id}" (${cap.scope}); this process may hold ${this.#registry.allowance(cap.limit)} of ${cap.limit}`,
        );
      }
      taken.push([key, topics.length]);
      this.#heldSubscriptions.set(key, (this.#heldSubscriptions.get(key) ?? 0) + topics.length);
    }
    return undo;
  }

  /** A subscribe message went out: its fresh topics are subscribed, and it is sent again after a reconnect. */
  subscribed(message: OutgoingMessage, fresh: readonly string[], topics: readonly string[]): void {
    for (const t of fresh) this.#subscriptions.add(t);
    this.#sent.push({ message, topics: new Set(topics) });
  }

  /** Unsubscribed topics: out of the set, out of the caps, out of the messages re-sent after a reconnect. */
  forget(topics: readonly string[]): void {
    const gone = topics.filter((t) => this.#subscriptions.delete(t));
    for (const s of this.#sent) for (const t of topics) s.topics.delete(t);
    for (let i = this.#sent.length - 1; i >= 0; i--) if (this.#sent[i]?.topics.size === 0) this.#sent.splice(i, 1);
    if (gone.length === 0) return;
    for (const cap of this.#caps) {
      if (cap.counts !== 'subscriptions') continue;
      const key = capKey(this.#spec, cap, this.#identity);
      if (key === undefined) continue;
      const held = this.#heldSubscriptions.get(key) ?? 0;
      const n = Math.min(held, gone.length);
      this.#registry.release(key, n);
      if (held - n > 0) this.#heldSubscriptions.set(key, held - n);
      else this.#heldSubscriptions.delete(key);
    }
  }

  /** Gives back every subscription held, and forgets the messages to send again. */
  releaseSubscriptions(): void {
    for (const [k, n] of this.#heldSubscriptions) this.#registry.release(k, n);
    this.#heldSubscriptions.clear();
    this.#subscriptions.clear();
    this.#sent.length = 0;
  }

  /** Refuses a message the venue would refuse for its size or its number of topics. */
  checkMessage(m: ClassifiedMessage): void {
    for (const cap of this.#caps) {
      if (cap.counts === 'message-bytes' && (cap.kinds === undefined || cap.kinds.includes(m.kind)) && m.bytes > cap.limit) {
        throw this.#fail('message_too_large', `a ${m.kind} message of ${m.bytes} bytes; cap "${cap.id}" allows ${cap.limit}`);
      }
      if (cap.counts === 'topics-per-message' && (m.kind === 'subscribe' || m.kind === 'unsubscribe') && m.topics.length > cap.limit) {
        throw this.#fail('too_many_topics', `a ${m.kind} message with ${m.topics.length} topics; cap "${cap.id}" allows ${cap.limit} per message: split it`);
      }
    }
  }
}
