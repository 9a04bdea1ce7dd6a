/** A signal that follows a caller's signal until released. */
export interface LinkedSignal {
  readonly signal: AbortSignal | undefined;
  /** Stops following the caller's signal (removes the listener it added). */
  release(): void;
}

/**
 * A fresh signal for one attempt that aborts when `parent` does. Node's fetch keeps its abort
 * listener on the signal it is given until garbage collection, so handing it a caller's long-lived
 * signal (one per worker, one per process) piles listeners up; a per-attempt signal, unlinked after
 * the response, keeps the caller's signal clean.
 */
export function linkSignal(parent: AbortSignal | undefined): LinkedSignal {
  if (parent === undefined) return { signal: undefined, release: () => undefined };
  const child = new AbortController();
  if (parent.aborted) {
    child.abort(parent.reason);
    return { signal: child.signal, release: () => undefined };
  }
  const follow = (): void => child.abort(parent.reason);
  parent.addEventListener('abort', follow, { once: true });
  return { signal: child.signal, release: () => parent.removeEventListener('abort', follow) };
}
