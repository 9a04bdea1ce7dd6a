/** A status line rewritten in place on a terminal. */
export interface ProgressLine {
  /** Shows `text` (on a terminal; elsewhere only every `everyMs`). */
  update(text: string): void;
  /** Clears the line (terminal) so the next output starts clean. */
  done(): void;
}

/**
 * A live progress line: on a TTY it rewrites one line (`\r` and clear-to-end); on anything else
 * (a pipe, a CI log) it prints a line every `everyMs` so logs stay readable.
 */
export function createProgressLine(stream: NodeJS.WritableStream & { isTTY?: boolean }, everyMs = 5_000): ProgressLine {
  const tty = stream.isTTY === true;
  let lastPrinted = 0;
  let shown = false;
  return {
    update(text: string): void {
      if (tty) {
        stream.write(`\r\x1b[2K${text}`);
        shown = true;
        return;
      }
      const now = Date.now();
      if (now - lastPrinted >= everyMs) {
        lastPrinted = now;
        stream.write(`${text}\n`);
      }
    },
    done(): void {
      if (tty && shown) stream.write('\r\x1b[2K');
      shown = false;
    },
  };
}
