import { LiveLimitsError } from './live-limits-error.js';

/**
 * Strict readers of a venue's JSON answer: each returns the value when it is exactly what the
 * documentation describes and throws a `malformed` {@link LiveLimitsError} naming the field
 * otherwise. Nothing is coerced or guessed.
 */

type Obj = Record<string, unknown>;

/** A short, printable rendering of a value for an error message. */
export function shown(v: unknown): string {
  let s: string;
  try {
    s = v === undefined ? 'undefined' : typeof v === 'number' && !Number.isFinite(v) ? String(v) : (JSON.stringify(v) ?? String(v));
  } catch {
    s = Object.prototype.toString.call(v);
  }
  return s.length > 80 ? `${s.slice(0, 77)}...` : s;
}

/** The path of a key or index under a path (`rateLimits[2].limit`). */
export function at(path: string, key: string | number): string {
  if (typeof key === 'number') return `${path}[${key}]`;
  return path === '' ? key : `${path}.${key}`;
}

function malformed(source: string, field: string, message: string): LiveLimitsError {
  return new LiveLimitsError('malformed', source, message, field === '' ? '(body)' : field);
}

/** A plain JSON object. */
export function object(source: string, v: unknown, field: string): Obj {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw malformed(source, field, `expected an object, got ${shown(v)}`);
  return v as Obj;
}

/** A JSON array. */
export function array(source: string, v: unknown, field: string): readonly unknown[] {
  if (!Array.isArray(v)) throw malformed(source, field, `expected an array, got ${shown(v)}`);
  return v;
}

/** Refuses keys outside `allowed` and requires every key of `required`. */
export function keys(source: string, o: Obj, field: string, required: readonly string[], optional: readonly string[] = []): void {
  for (const k of required) if (!(k in o)) throw malformed(source, at(field, k), 'missing');
  for (const k of Object.keys(o)) {
    if (!required.includes(k) && !optional.includes(k))
      throw malformed(source, at(field, k), `unexpected field (the documentation lists ${[...required, ...optional].join(', ')})`);
  }
}

/** A string. */
export function string(source: string, v: unknown, field: string): string {
  if (typeof v !== 'string') throw malformed(source, field, `expected a string, got ${shown(v)}`);
  return v;
}

/** One of the documented values. */
export function oneOf<T extends string>(source: string, v: unknown, field: string, values: readonly T[]): T {
  if (typeof v !== 'string' || !(values as readonly string[]).includes(v))
    throw malformed(source, field, `expected one of ${values.join(', ')}, got ${shown(v)}`);
  return v as T;
}

/** A JSON number that is a safe integer greater than 0. */
export function positiveInteger(source: string, v: unknown, field: string): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v <= 0) throw malformed(source, field, `expected a positive integer, got ${shown(v)}`);
  return v;
}

/** A JSON number that is a safe integer, 0 or more. */
export function nonNegativeInteger(source: string, v: unknown, field: string): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) throw malformed(source, field, `expected an integer >= 0, got ${shown(v)}`);
  return v;
}

const DIGITS = /^(0|[1-9][0-9]*)$/;
const DECIMAL = /^(0|[1-9][0-9]*)(\.[0-9]+)?$/;

/** A string of decimal digits (no sign, no exponent, no leading zero) whose value is a safe integer greater than 0. */
export function positiveIntegerString(source: string, v: unknown, field: string): number {
  const s = string(source, v, field);
  const n = DIGITS.test(s) ? Number(s) : Number.NaN;
  if (!Number.isSafeInteger(n) || n <= 0) throw malformed(source, field, `expected a positive integer as a string, got ${shown(v)}`);
  return n;
}

/** A string of decimal digits whose value is a safe integer, 0 or more. */
export function nonNegativeIntegerString(source: string, v: unknown, field: string): number {
  const s = string(source, v, field);
  const n = DIGITS.test(s) ? Number(s) : Number.NaN;
  if (!Number.isSafeInteger(n)) throw malformed(source, field, `expected an integer >= 0 as a string, got ${shown(v)}`);
  return n;
}

/** A non-negative decimal number written as a string (`"0.65"`), or `""` where the documentation allows it. */
export function decimalStringOrEmpty(source: string, v: unknown, field: string): number | undefined {
  const s = string(source, v, field);
  if (s === '') return undefined;
  const n = DECIMAL.test(s) ? Number(s) : Number.NaN;
  if (!Number.isFinite(n)) throw malformed(source, field, `expected a decimal number as a string or "", got ${shown(v)}`);
  return n;
}
