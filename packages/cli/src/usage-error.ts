/**
 * A mistake in the command line or its environment that the user can fix; the message says how.
 * The CLI prints it (without a stack) and exits with code 2.
 */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
