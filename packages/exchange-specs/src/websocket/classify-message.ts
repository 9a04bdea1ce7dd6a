import { readPath } from '../request-params.js';
import type { MessageKind, WebSocketEndpointSpec } from './websocket-spec.js';

/** What a message sent to a venue is (see {@link classifyMessage}). */
export interface ClassifiedMessage {
  readonly kind: MessageKind;
  /** The operation name read at the format's `operationPath` (JSON messages). */
  readonly operation?: string;
  /** The topics of a subscribe or unsubscribe message, one string per topic. */
  readonly topics: readonly string[];
  /** The parsed JSON message (absent for text that is not JSON and for frames). */
  readonly json?: unknown;
  /** The message's size in bytes as sent (UTF-8 for text). */
  readonly bytes: number;
}

/** A message as a client sends it: text, bytes, or a value sent as its JSON text. */
export type OutgoingMessage = string | Uint8Array | ArrayBuffer | object;

/** The wire form of a message: text as is, bytes as is, anything else as its JSON text. */
export function wireForm(message: OutgoingMessage): string | Uint8Array {
  if (typeof message === 'string') return message;
  if (message instanceof Uint8Array) return message;
  if (message instanceof ArrayBuffer) return new Uint8Array(message);
  return JSON.stringify(message);
}

/** The size of a wire message in bytes. */
export function wireBytes(wire: string | Uint8Array): number {
  return typeof wire === 'string' ? Buffer.byteLength(wire, 'utf8') : wire.byteLength;
}

/** A stable text for a topic that is an object: its JSON with keys sorted. */
function topicText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === null || typeof v !== 'object') return String(v);
  if (Array.isArray(v)) return `[${v.map(topicText).join(',')}]`;
  const o = v as Record<string, unknown>;
  return `{${Object.keys(o)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${topicText(o[k])}`)
    .join(',')}}`;
}

/**
 * The topics of a subscribe or unsubscribe message by the endpoint's format: one per element of
 * the array at `topicsPath` (`items`; a single value is one topic), or one per comma-separated
 * symbol after the colon (`comma-after-colon`, KuCoin). With `topicPrefixPath`, each topic is
 * prefixed by the value found there (Kraken's channel, Gate's channel), so the same symbol on two
 * channels is two topics.
 */
export function messageTopics(endpoint: WebSocketEndpointSpec, json: unknown): readonly string[] {
  const f = endpoint.format;
  if (f?.topicsPath === undefined) return [];
  const raw = readPath(json, f.topicsPath);
  if (raw === undefined || raw === null) return [];
  const prefixRaw = f.topicPrefixPath === undefined ? undefined : readPath(json, f.topicPrefixPath);
  const prefix = prefixRaw === undefined || prefixRaw === null ? '' : `${topicText(prefixRaw)}|`;
  if (f.topicList === 'comma-after-colon') {
    const text = typeof raw === 'string' ? raw : topicText(raw);
    const colon = text.indexOf(':');
    if (colon < 0) return [`${prefix}${text}`];
    const head = text.slice(0, colon + 1);
    return text
      .slice(colon + 1)
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '')
      .map((s) => `${prefix}${head}${s}`);
  }
  const items = Array.isArray(raw) ? raw : [raw];
  return items.map((x) => `${prefix}${topicText(x)}`);
}

function parseJson(text: string): unknown {
  const t = text.trim();
  if (!(t.startsWith('{') || t.startsWith('['))) return undefined;
  try {
    return JSON.parse(t) as unknown;
  } catch {
    return undefined;
  }
}

/**
 * Classifies a message sent to a venue's WebSocket endpoint by the endpoint's documented format:
 * its kind (subscribe, unsubscribe, login, ping, pong, a WebSocket API request of a listed
 * operation, or other), its operation name and its topics. A client and an emulator classify alike,
 * so they charge the same buckets for it.
 *
 * @param endpoint - the endpoint (its `format` and `operations`).
 * @param message - the message as sent (text, bytes, or a value sent as JSON).
 * @returns the classification; a message the format cannot read is `other`.
 * @example
 * ```ts
 * classifyMessage(binanceStreams, { method: 'SUBSCRIBE', params: ['btcusdt@trade'], id: 1 });
 * // { kind: 'subscribe', operation: 'SUBSCRIBE', topics: ['btcusdt@trade'], ... }
 * ```
 */
export function classifyMessage(endpoint: WebSocketEndpointSpec, message: OutgoingMessage): ClassifiedMessage {
  const wire = wireForm(message);
  const bytes = wireBytes(wire);
  const f = endpoint.format;
  const text = typeof wire === 'string' ? wire : undefined;
  if (text !== undefined && f?.text !== undefined) {
    const kind = f.text[text.trim()];
    if (kind !== undefined) return { kind, topics: [], bytes };
  }
  const json =
    typeof message === 'object' && !(message instanceof Uint8Array) && !(message instanceof ArrayBuffer)
      ? message
      : text === undefined
        ? undefined
        : parseJson(text);
  if (json === undefined) return { kind: 'other', topics: [], bytes };
  const opRaw = f === undefined ? undefined : readPath(json, f.operationPath);
  const operation = typeof opRaw === 'string' ? opRaw : undefined;
  const base = { json, bytes, ...(operation === undefined ? {} : { operation }) };
  if (operation === undefined || f === undefined) return { ...base, kind: 'other', topics: [] };
  if (f.subscribe?.includes(operation) === true) return { ...base, kind: 'subscribe', topics: messageTopics(endpoint, json) };
  if (f.unsubscribe?.includes(operation) === true) return { ...base, kind: 'unsubscribe', topics: messageTopics(endpoint, json) };
  if (f.login?.includes(operation) === true) return { ...base, kind: 'login', topics: [] };
  if (f.ping?.includes(operation) === true) return { ...base, kind: 'ping', topics: [] };
  if (f.pong?.includes(operation) === true) return { ...base, kind: 'pong', topics: [] };
  if (endpoint.operations?.some((o) => o.operation === operation) === true) return { ...base, kind: 'request', topics: [] };
  return { ...base, kind: 'other', topics: [] };
}
