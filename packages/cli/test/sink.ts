import { Writable } from 'node:stream';

/** A stream that keeps what is written, for checking the CLI's output. */
export class Sink extends Writable {
  text = '';
  override _write(chunk: Buffer | string, _enc: BufferEncoding, done: (e?: Error | null) => void): void {
    this.text += chunk.toString();
    done();
  }
}
