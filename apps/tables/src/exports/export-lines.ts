import { Transform, TransformCallback } from 'node:stream';
import type { JobProgress } from '../jobs/job-runner';

const QUOTE = 0x22;
const NEWLINE = 0x0a;

/**
 * Passes an export's output through after its header, counting the rows as they go by into `progress`. A
 * row ends at a newline; in CSV, only at one outside quotes (a value may hold newlines inside its quotes).
 * An NDJSON line holds no raw newline (JSON escapes it), and its quotes may be escaped, so there every
 * newline counts.
 */
export class ExportLines extends Transform {
  private quoted = false;

  constructor(
    header: string,
    private readonly csv: boolean,
    private readonly progress: JobProgress,
  ) {
    super();
    if (header) this.push(header);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.progress.rowsDone += this.csv ? this.csvRows(chunk) : newlines(chunk);
    done(null, chunk);
  }

  private csvRows(chunk: Buffer): number {
    let rows = 0;
    let at = 0;
    while (at < chunk.length) {
      if (this.quoted) {
        const close = chunk.indexOf(QUOTE, at);
        if (close < 0) break;
        this.quoted = false;
        at = close + 1;
        continue;
      }
      const newline = chunk.indexOf(NEWLINE, at);
      const quote = chunk.indexOf(QUOTE, at);
      if (newline < 0 && quote < 0) break;
      if (quote >= 0 && (newline < 0 || quote < newline)) {
        // A doubled quote inside a value closes and reopens: the count of quotes decides, not their pairing.
        this.quoted = true;
        at = quote + 1;
        continue;
      }
      rows += 1;
      at = newline + 1;
    }
    return rows;
  }
}

function newlines(chunk: Buffer): number {
  let count = 0;
  for (let at = chunk.indexOf(NEWLINE); at >= 0; at = chunk.indexOf(NEWLINE, at + 1)) count += 1;
  return count;
}
