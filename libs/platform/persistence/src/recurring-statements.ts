import { createHash } from 'node:crypto';
import type { ClientBase, QueryResult, QueryResultRow } from 'pg';

/**
 * How many statements of built text one connection keeps prepared at once; the one run least recently
 * is deallocated to make room. A service with thousands of tables then holds at most this many plans
 * per backend, while the tables written all the time keep theirs.
 */
export const RECURRING_PER_CONNECTION = 32;

/** The names pg has parsed on a connection (pg keeps them there, with no other way to forget one). */
function parsedOn(client: ClientBase): Record<string, string> | undefined {
  const parsed = (client as unknown as { connection?: { parsedStatements?: Record<string, string> } }).connection?.parsedStatements;
  return typeof parsed === 'object' && parsed !== null ? parsed : undefined;
}

/** Per connection, the names it holds prepared, least recently run first. */
const kept = new WeakMap<ClientBase, Set<string>>();

function nameOf(text: string): string {
  return `r_${createHash('sha1').update(text).digest('hex')}`;
}

/**
 * Runs a statement whose text is built from the data's shape (a table's fields), and so recurs as often as
 * that shape is written, prepared on `client` under a name its text hashes to: Postgres parses and plans it
 * once per connection instead of on every run (for a batch's INSERT, planning cost about a sixth of running
 * it), within the connection's bound. A client pg does not drive runs it as text.
 */
export async function runRecurring<R extends QueryResultRow>(client: ClientBase, text: string, values?: unknown[]): Promise<QueryResult<R>> {
  const parsed = parsedOn(client);
  if (!parsed) return client.query<R>(text, values);
  let names = kept.get(client);
  if (!names) kept.set(client, (names = new Set()));
  const name = nameOf(text);
  if (names.delete(name)) names.add(name);
  else {
    for (const oldest of names) {
      if (names.size < RECURRING_PER_CONNECTION) break;
      names.delete(oldest);
      await client.query(`DEALLOCATE ${oldest}`);
      delete parsed[oldest];
    }
    names.add(name);
  }
  try {
    return await client.query<R>({ name, text, values });
  } finally {
    // A text Postgres refused to parse was never prepared: the set follows what the connection holds.
    if (parsed[name] === undefined) names.delete(name);
  }
}
