/** The arguments ccxt signed one request with: enough to sign it again with a fresh timestamp or nonce. */
export interface SignedCall {
  readonly path: string;
  readonly api: unknown;
  readonly method: string;
  /** A copy of the parameters as they were before signing (a sign may change what it is given). */
  readonly params: unknown;
  readonly headers: unknown;
  readonly body: unknown;
  /** The signature's number (the adapter numbers every signature it makes), and when it was made (ccxt's clock, ms). */
  readonly seq: number;
  readonly atMs: number;
  /** Whether it is signed again when it is sent (a public request has no timestamp or nonce to refresh). */
  readonly resign: boolean;
}

/** How many signed requests not yet handed to the transport are kept (sign calls outside a request are dropped oldest first). */
const MAX_PENDING = 2_048;

/**
 * The requests ccxt signed and has not handed to its transport yet, by method and URL. Between
 * `sign` and the transport ccxt adds its headers and may move the URL behind a proxy; a request found
 * here by the URL the transport got is the one that was signed, and is signed again when it is sent.
 * Identical keys are identical requests (a private request's key holds its timestamp and signature), so
 * either of two such entries serves.
 */
export class SignedCalls {
  private readonly pending = new Map<string, SignedCall[]>();
  private size = 0;

  static key(method: string, url: string): string {
    return `${method.toUpperCase()} ${url}`;
  }

  add(method: string, url: string, call: SignedCall): void {
    const key = SignedCalls.key(method, url);
    const list = this.pending.get(key);
    if (list === undefined) this.pending.set(key, [call]);
    else list.push(call);
    if (++this.size > MAX_PENDING) this.dropOldest();
  }

  /** Takes the signed call of a request the transport got, if ccxt signed it. */
  take(method: string, url: string): SignedCall | undefined {
    const key = SignedCalls.key(method, url);
    const list = this.pending.get(key);
    if (list === undefined) return undefined;
    const call = list.shift();
    if (list.length === 0) this.pending.delete(key);
    this.size -= 1;
    return call;
  }

  private dropOldest(): void {
    const first = this.pending.keys().next();
    if (first.done === true) return;
    const list = this.pending.get(first.value);
    list?.shift();
    if (list === undefined || list.length === 0) this.pending.delete(first.value);
    this.size -= 1;
  }
}
