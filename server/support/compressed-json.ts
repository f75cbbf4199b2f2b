import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

const gzipAsync = promisify(gzip);
const brotliAsync = promisify(brotliCompress);

export type Encoding = 'br' | 'gzip';

/**
 * Brotli at its best quality shrinks a records list about a fifth more than gzip, but costs seconds of CPU on a few
 * megabytes and grows past a minute on tens: only texts up to this size get it. Above, gzip at level 9 is as small as
 * brotli at any quality that finishes in seconds (measured on a 100,000-record list).
 */
const BROTLI_MAX_BYTES = 4 * 1024 * 1024;

/**
 * A JSON text kept with its compressed forms, made once and reused for as long as the text is (the zone cache keeps
 * one per zone version; the router picks the form a request accepts), so a repeated read of a large list costs no compression. gzip (level 9) is made on the first
 * read that accepts it; brotli (quality 11), which takes seconds, is made in the background from then on and answers
 * every read after it is ready. Compression runs on libuv's thread pool, never on the event loop.
 */
export class CompressedJson {
  private gzipped?: Promise<Buffer>;
  private brotli?: Buffer;
  private brotliStarted = false;

  constructor(readonly text: string) {}

  /** The body to send for a request accepting `accepted`: the smallest form ready, or undefined for the plain text. */
  async encodedFor(accepted: Set<Encoding>): Promise<{ encoding: Encoding; body: Buffer } | undefined> {
    if (accepted.has('br')) {
      if (this.brotli) return { encoding: 'br', body: this.brotli };
      const brotli = this.startBrotli();
      if (!accepted.has('gzip') && brotli) return { encoding: 'br', body: await brotli };
    }
    if (accepted.has('gzip')) return { encoding: 'gzip', body: await this.gzip() };
    return undefined;
  }

  private gzip(): Promise<Buffer> {
    this.gzipped ??= gzipAsync(this.text, { level: 9 });
    return this.gzipped;
  }

  private startBrotli(): Promise<Buffer> | undefined {
    if (this.brotliStarted || Buffer.byteLength(this.text) > BROTLI_MAX_BYTES) return undefined;
    this.brotliStarted = true;
    const made = brotliAsync(this.text, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_LGWIN]: 24, [constants.BROTLI_PARAM_SIZE_HINT]: this.text.length },
    });
    made.then((body) => (this.brotli = body)).catch(() => undefined);
    return made;
  }
}
