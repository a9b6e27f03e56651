import { createInterface } from 'node:readline';
import { Readable, Transform, TransformCallback } from 'node:stream';
import { parse } from 'csv-parse';
import type { ImportFormat } from '@contracts';

/** The largest CSV record or NDJSON line read; a longer one is a problem of its line, and memory stays bounded. */
export const MAX_RECORD_BYTES = 16 * 1024 * 1024;

/** A line of the file: its cells (CSV) or its object (NDJSON), or why it cannot be read. */
export type FileRecord = { line: number; cells: string[] } | { line: number; object: Record<string, unknown> } | { line: number; problem: string };

/** The file is not what it says it is; nothing after this point can be read. */
export class UnreadableFile extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Decodes UTF-8 strictly: a byte sequence that is not UTF-8 ends the text there, after the lines before it,
 * and `failure` names the line it is on, instead of replacement characters being stored as if sent.
 */
class StrictUtf8 extends Transform {
  private readonly decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  private line = 1;
  failure?: UnreadableFile;

  constructor() {
    super({ readableObjectMode: false, decodeStrings: true });
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.decode(chunk, true, done);
  }

  override _flush(done: TransformCallback): void {
    this.decode(Buffer.alloc(0), false, done);
  }

  private decode(chunk: Buffer, stream: boolean, done: TransformCallback): void {
    if (this.failure) {
      done();
      return;
    }
    try {
      done(null, this.counted(this.decoder.decode(chunk, { stream })));
    } catch {
      this.push(this.counted(this.validPrefix(chunk)));
      this.failure = new UnreadableFile(this.line, 'is not valid UTF-8');
      this.push(null);
      done();
    }
  }

  /** The text of the chunk up to its first byte that is not UTF-8 (the decoder failed on the chunk). */
  private validPrefix(chunk: Buffer): string {
    const decoder = new TextDecoder('utf-8', { fatal: true });
    let text = '';
    for (let i = 0; i < chunk.length; i += 1) {
      try {
        text += decoder.decode(chunk.subarray(i, i + 1), { stream: true });
      } catch {
        break;
      }
    }
    return text;
  }

  private counted(text: string): string {
    for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) this.line += 1;
    return text;
  }
}

async function* csvRecords(text: Readable): AsyncGenerator<FileRecord> {
  const skipped: FileRecord[] = [];
  const parser = parse({ info: true, skip_records_with_error: true, max_record_size: MAX_RECORD_BYTES, relax_quotes: false });
  parser.on('skip', (error: Error & { lines?: number }) => skipped.push({ line: error.lines ?? 0, problem: error.message }));
  text.on('error', (error) => parser.destroy(error));
  text.pipe(parser);
  for await (const { record, info } of parser as AsyncIterable<{ record: string[]; info: { lines: number } }>) {
    // The parser runs ahead of the loop: only the lines it skipped before this record come first.
    const before = skipped.findIndex((skip) => skip.line > info.lines);
    yield* skipped.splice(0, before < 0 ? skipped.length : before);
    yield { line: info.lines, cells: record };
  }
  yield* skipped.splice(0);
}

async function* ndjsonRecords(text: Readable): AsyncGenerator<FileRecord> {
  const lines = createInterface({ input: text, crlfDelay: Infinity });
  let line = 0;
  for await (const content of lines) {
    line += 1;
    if (content.trim() === '') continue;
    if (content.length > MAX_RECORD_BYTES) {
      yield { line, problem: `is longer than ${MAX_RECORD_BYTES} characters` };
      continue;
    }
    let object: unknown;
    try {
      object = JSON.parse(content);
    } catch {
      yield { line, problem: 'is not a JSON value' };
      continue;
    }
    if (typeof object !== 'object' || object === null || Array.isArray(object)) yield { line, problem: 'must be a JSON object of field values' };
    else yield { line, object: object as Record<string, unknown> };
  }
}

/** The records of a file as it streams in; at most one record is held at a time. */
export async function* fileRecords(bytes: Readable, format: ImportFormat): AsyncGenerator<FileRecord> {
  const text = new StrictUtf8();
  // A file cut short (storage failed, the process is stopping) must never read as a shorter file.
  let broken: Error | undefined;
  bytes.on('error', (error) => {
    broken = error;
    text.destroy(error);
  });
  bytes.pipe(text);
  try {
    yield* format === 'csv' ? csvRecords(text) : ndjsonRecords(text);
    if (broken) throw broken;
    if (text.failure) throw text.failure;
  } finally {
    bytes.destroy();
  }
}
