/**
 * Settles with `p`, or with `'timeout'` when `p` has not settled after `ms` of real time (the timer
 * does not keep the process alive). A rejection of `p` passes through as an Error.
 */
export function withDeadline<T>(p: Promise<T>, ms: number): Promise<T | 'timeout'> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => resolve('timeout'), ms);
    t.unref();
    p.then(
      (v) => {
        clearTimeout(t);
        resolve(v);
      },
      (e: unknown) => {
        clearTimeout(t);
        reject(e instanceof Error ? e : new Error(String(e)));
      },
    );
  });
}
