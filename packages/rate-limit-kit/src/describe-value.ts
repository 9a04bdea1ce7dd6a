/**
 * Names a bad value for an error message: numbers and short strings as they are, other things by
 * their type. Never use it on a credential (RL-K3); see {@link describeSecret}.
 */
export function describeValue(value: unknown): string {
  switch (typeof value) {
    case 'number':
      return Object.is(value, -0) ? '-0' : String(value);
    case 'string':
      return value.length > 64 ? `${JSON.stringify(value.slice(0, 64))}… (${value.length} characters)` : JSON.stringify(value);
    case 'bigint':
      return `${value}n (a bigint)`;
    case 'boolean':
      return String(value);
    case 'undefined':
      return 'undefined';
    case 'symbol':
      return 'a symbol';
    case 'function':
      return 'a function';
    default:
      if (value === null) return 'null';
      return Array.isArray(value) ? `an array of length ${value.length}` : 'an object';
  }
}

/** Names a bad credential by its type and length only: its content is a secret (RL-K3). */
export function describeSecret(value: unknown): string {
  if (typeof value === 'string') return value.length === 0 ? 'an empty string' : `a string of ${value.length} characters`;
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return 'an array';
  return `a value of type ${typeof value}`;
}
