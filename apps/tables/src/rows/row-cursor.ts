import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { AppError } from '@platform/errors';

/** Where the next page starts: the last row's sort value (as Postgres text, exact) and id, and that page's number. */
export interface CursorPosition {
  key: string | null;
  id: string;
  page: number;
}

/** What a cursor is tied to: the same table, sort, order, filter and limit must come back with it. */
export interface CursorQuery {
  tableId: string;
  sort: string;
  order: 'asc' | 'desc';
  filter: string;
  limit: number;
}

interface CursorBody extends CursorPosition {
  q: string;
}

const MAC_BYTES = 16;

function queryDigest(query: CursorQuery): string {
  return createHash('sha256').update(JSON.stringify([query.tableId, query.sort, query.order, query.filter, query.limit])).digest('base64url').slice(0, 22);
}

function invalid(reason: string): AppError {
  return AppError.validation('cursor', reason);
}

/**
 * Opaque, tamper-evident cursors: base64url JSON of the position and a digest of its query, then an
 * HMAC-SHA-256 (truncated to 128 bits) under the server's ROW_CURSOR_KEY. A changed byte, another
 * query or another table's cursor is refused before anything reaches SQL.
 */
export class RowCursors {
  constructor(private readonly key: Buffer) {}

  private mac(body: string): Buffer {
    return createHmac('sha256', this.key).update(body).digest().subarray(0, MAC_BYTES);
  }

  encode(query: CursorQuery, position: CursorPosition): string {
    const body: CursorBody = { q: queryDigest(query), ...position };
    const text = Buffer.from(JSON.stringify(body)).toString('base64url');
    return `${text}.${this.mac(text).toString('base64url')}`;
  }

  decode(query: CursorQuery, cursor: string): CursorPosition {
    const [text, signature, extra] = cursor.split('.');
    if (!text || !signature || extra !== undefined) throw invalid('is not a cursor this API issued');
    const given = Buffer.from(signature, 'base64url');
    const expected = this.mac(text);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid('is not a cursor this API issued');
    const body = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as CursorBody;
    if (body.q !== queryDigest(query)) throw invalid('belongs to another query: send the same sort, order, filter and limit it came with');
    return { key: body.key, id: body.id, page: body.page };
  }
}
