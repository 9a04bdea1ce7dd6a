import type { ClassifiedMessage } from '@core/exchange-specs';

/** What the emulator does with a message or connection over a limit: answer it, close the connection, or both. */
export interface WebSocketRefusal {
  /** A text frame sent back (the venue's error event or response). */
  readonly reply?: string;
  /** Close the connection with this code and reason (Binance drops a connection over its message rate). */
  readonly close?: { readonly code: number; readonly reason: string };
}

/** Why a message was refused. */
export interface WebSocketRefusalContext {
  /** `rate`: a WebSocket bucket had no room; `rest`: a REST bucket of a WebSocket API request; `cap`: a cap. */
  readonly why: 'rate' | 'rest' | 'cap';
  readonly message: ClassifiedMessage;
  /** The request's id as the client sent it (`id`, `reqId`), for the reply. */
  readonly requestId: unknown;
  readonly detail: string;
  /** For `rate`: the scope of the bucket that had no room (`connection`, `ip`, `uid`...). */
  readonly scope?: string;
  readonly nowMs: number;
}

/** How one venue talks over WebSocket in the emulator. */
export interface WebSocketStyle {
  readonly name: string;
  /** The HTTP status of a refused upgrade (over the attempt rate or a connection cap). */
  readonly refusedUpgradeStatus: number;
  refuse(context: WebSocketRefusalContext): WebSocketRefusal;
  /** The answer to an admitted message (an ack, a pong, a WebSocket API response), if any. */
  answer(message: ClassifiedMessage, requestId: unknown, nowMs: number): string | undefined;
  /** One market-data event for a subscribed topic. */
  push(topic: string, nowMs: number, price: number): string;
}

const json = (v: unknown): string => JSON.stringify(v);

function requestIdOf(m: ClassifiedMessage): unknown {
  const o = m.json as Record<string, unknown> | undefined;
  return o?.['id'] ?? o?.['reqId'] ?? null;
}

/** The id field a client put in its message. */
export function messageId(m: ClassifiedMessage): unknown {
  return requestIdOf(m);
}

/**
 * Binance: a connection over its message rate (or its stream cap) is disconnected; a WebSocket API
 * request over the REST weight or order count answers status 429 with code -1003 / -1015.
 */
export const binanceWebSocketStyle: WebSocketStyle = {
  name: 'binance',
  refusedUpgradeStatus: 429,
  refuse(ctx) {
    if (ctx.why === 'rest') {
      const orders = ctx.detail.startsWith('orders');
      return {
        reply: json({
          id: ctx.requestId,
          status: 429,
          error: orders ? { code: -1015, msg: 'Too many new orders.' } : { code: -1003, msg: `Too much request weight used; ${ctx.detail}` },
        }),
      };
    }
    return { close: { code: 1008, reason: ctx.why === 'cap' ? 'Too many streams' : 'Too many requests' } };
  },
  answer(m, id, nowMs) {
    if (m.kind === 'subscribe' || m.kind === 'unsubscribe') return json({ result: null, id });
    if (m.kind === 'request') return json({ id, status: 200, result: { serverTime: Math.floor(nowMs), operation: m.operation } });
    if (m.kind === 'other' && m.json !== undefined) return json({ result: [], id });
    return undefined;
  },
  push(topic, nowMs, price) {
    const symbol = topic.split('@')[0]?.toUpperCase() ?? topic;
    return json({ stream: topic, data: { e: 'trade', E: Math.floor(nowMs), s: symbol, p: price.toFixed(2), q: '0.010', T: Math.floor(nowMs) } });
  },
};

/** OKX: refusals are error events (60014 "Requests too frequent", 50011 for orders over the REST limit). */
export const okxWebSocketStyle: WebSocketStyle = {
  name: 'okx',
  refusedUpgradeStatus: 429,
  refuse(ctx) {
    if (ctx.why === 'rest') {
      return {
        reply: json({
          id: ctx.requestId,
          op: ctx.message.operation,
          code: '1',
          msg: '',
          data: [{ sCode: '50011', sMsg: 'Rate limit reached. Please refer to API documentation and throttle requests accordingly.' }],
        }),
      };
    }
    if (ctx.why === 'cap') return { reply: json({ event: 'error', code: '60012', msg: `Invalid request: ${ctx.detail}` }) };
    return { reply: json({ event: 'error', code: '60014', msg: 'Requests too frequent' }) };
  },
  answer(m, id, nowMs) {
    if (m.kind === 'ping') return 'pong';
    if (m.kind === 'subscribe' || m.kind === 'unsubscribe') {
      const args = ((m.json as Record<string, unknown>)['args'] as unknown[] | undefined) ?? [];
      return args.map((arg) => json({ event: m.kind, arg, connId: 'emulated' })).join('\n');
    }
    if (m.kind === 'login') return json({ event: 'login', code: '0', msg: '', connId: 'emulated' });
    if (m.kind === 'request')
      return json({
        id,
        op: m.operation,
        code: '0',
        msg: '',
        data: [{ ordId: String(Math.floor(nowMs)), sCode: '0', sMsg: 'Order placed' }],
        inTime: String(Math.floor(nowMs * 1000)),
      });
    return undefined;
  },
  push(topic, nowMs, price) {
    let arg: unknown = topic;
    try {
      arg = JSON.parse(topic) as unknown;
    } catch {
      // a plain-text topic
    }
    return json({ arg, data: [{ last: price.toFixed(1), ts: String(Math.floor(nowMs)) }] });
  },
};

/** Bybit: `{ success: false, ret_msg }` for streams; order entry retCode 10006 (account) or 10403 (trade IP limit). */
export const bybitWebSocketStyle: WebSocketStyle = {
  name: 'bybit',
  refusedUpgradeStatus: 403,
  refuse(ctx) {
    if (ctx.message.kind === 'request') {
      const ip = ctx.why === 'rate';
      return {
        reply: json({
          reqId: ctx.requestId,
          retCode: ip ? 10403 : 10006,
          retMsg: ip ? 'exceed IP rate limit' : 'Too many visits!',
          op: ctx.message.operation,
          data: {},
          header: {},
        }),
      };
    }
    return { reply: json({ success: false, ret_msg: ctx.detail, op: ctx.message.operation ?? 'unknown' }) };
  },
  answer(m, id, nowMs) {
    if (m.kind === 'ping') return json({ success: true, ret_msg: 'pong', op: 'ping', req_id: id });
    if (m.kind === 'subscribe' || m.kind === 'unsubscribe' || m.kind === 'login') return json({ success: true, ret_msg: '', op: m.operation, req_id: id });
    if (m.kind === 'request') return json({ reqId: id, retCode: 0, retMsg: 'OK', op: m.operation, data: { orderId: String(Math.floor(nowMs)) }, header: {} });
    return undefined;
  },
  push(topic, nowMs, price) {
    return json({ topic, type: 'snapshot', ts: Math.floor(nowMs), data: { lastPrice: price.toFixed(2) } });
  },
};

/** KuCoin: an error message with code 509 over the message rate. */
export const kucoinWebSocketStyle: WebSocketStyle = {
  name: 'kucoin',
  refusedUpgradeStatus: 429,
  refuse(ctx) {
    return {
      reply: json({
        id: ctx.requestId,
        type: 'error',
        code: ctx.why === 'cap' ? 400 : 509,
        data: ctx.why === 'cap' ? ctx.detail : 'exceed max permits per second',
      }),
    };
  },
  answer(m, id) {
    if (m.kind === 'ping') return json({ id, type: 'pong' });
    if (m.kind === 'subscribe' || m.kind === 'unsubscribe') return json({ id, type: 'ack' });
    return undefined;
  },
  push(topic, nowMs, price) {
    return json({ type: 'message', topic, subject: 'trade.ticker', data: { price: price.toFixed(2), time: Math.floor(nowMs) } });
  },
};

/** Any other venue: an error event, and a close over a per-connection message rate. */
export const genericWebSocketStyle: WebSocketStyle = {
  name: 'generic',
  refusedUpgradeStatus: 429,
  refuse(ctx) {
    if (ctx.why === 'rate' && ctx.scope === 'connection') return { close: { code: 1008, reason: 'Too many messages' } };
    return { reply: json({ event: 'error', code: 429, msg: ctx.detail, id: ctx.requestId }) };
  },
  answer(m, id) {
    if (m.kind === 'ping') return m.json === undefined ? 'pong' : json({ method: 'pong', id });
    if (m.kind === 'subscribe' || m.kind === 'unsubscribe') return json({ event: m.kind, id, topics: m.topics });
    return undefined;
  },
  push(topic, nowMs, price) {
    return json({ topic, data: { price: price.toFixed(2), ts: Math.floor(nowMs) } });
  },
};

const STYLES: readonly WebSocketStyle[] = [binanceWebSocketStyle, okxWebSocketStyle, bybitWebSocketStyle, kucoinWebSocketStyle];

/** The WebSocket style of a venue id (`binance-spot` → Binance's), generic otherwise. */
export function webSocketStyleFor(venueId: string): WebSocketStyle {
  const id = venueId.toLowerCase();
  return STYLES.find((s) => id === s.name || id.startsWith(`${s.name}-`)) ?? genericWebSocketStyle;
}
