/**
 * The bare ceiling: one Fastify process with a `pg` pool that writes the same row and an outbox entry
 * in one transaction, with none of the gateway, NATS or service layers in between. The table has the
 * indexes a rows table with the bench's fields has: sort keys with the id (none of the bench's fields is
 * `searchable`, so no trigram index). `POST /rows` writes one row, `POST /rows/batch` a batch of rows and their outbox entries in
 * two multi-row statements, as the tables service does.
 */
import { randomUUID } from 'node:crypto';
import Fastify from 'fastify';
import { Pool } from 'pg';

const url = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/platform_bench';
const port = Number(process.env.PORT ?? 3999);
const pool = new Pool({ connectionString: url, max: Number(process.env.DATABASE_POOL_SIZE ?? 10) });

async function prepare(): Promise<void> {
  await pool.query('CREATE SCHEMA IF NOT EXISTS bench');
  await pool.query(`CREATE TABLE IF NOT EXISTS bench.bare_rows (
    id uuid PRIMARY KEY, created_at timestamptz NOT NULL DEFAULT now(), updated_at timestamptz NOT NULL DEFAULT now(),
    title text COLLATE "C", amount numeric, status text COLLATE "C", day date, done boolean, email text COLLATE "C")`);
  const sortKeys = { title: 'left(title, 200)', amount: 'amount', status: 'status', day: 'day', done: 'done', email: 'left(email, 200)', created_at: 'created_at', updated_at: 'updated_at' };
  for (const [column, key] of Object.entries(sortKeys)) {
    await pool.query(`CREATE INDEX IF NOT EXISTS bare_rows_${column}_idx ON bench.bare_rows ((${key}), id)`);
  }
  await pool.query(`CREATE TABLE IF NOT EXISTS bench.bare_outbox (seq bigserial PRIMARY KEY, id uuid NOT NULL UNIQUE, subject text NOT NULL, payload text COMPRESSION lz4 NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`);
}

type RowData = Record<string, unknown>;
const COLUMNS = ['title', 'amount', 'status', 'day', 'done', 'email'] as const;

/** Writes the rows and one outbox entry per row in one transaction; answers each row's created_at. */
async function writeRows(items: readonly RowData[]): Promise<Array<{ id: string; data: RowData; created_at: Date }>> {
  const ids = items.map(() => randomUUID());
  const rowParams: unknown[] = [];
  const rowTuples = items.map((data, i) => {
    const values = [ids[i], ...COLUMNS.map((column) => data[column])];
    return `(${values.map((value) => `$${rowParams.push(value)}`).join(', ')})`;
  });
  const eventParams: unknown[] = [];
  const eventTuples = items.map((data, i) => {
    const event = { id: randomUUID(), event: 'row.created', timestamp: new Date().toISOString(), data: { row_id: ids[i], row_data: data } };
    return `($${eventParams.push(event.id)}, $${eventParams.push('events.bench.row.created')}, $${eventParams.push(JSON.stringify(event))})`;
  });
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const { rows } = await client.query<{ created_at: Date }>(
      `INSERT INTO bench.bare_rows (id, ${COLUMNS.join(', ')}) VALUES ${rowTuples.join(', ')} RETURNING created_at`,
      rowParams,
    );
    await client.query(`INSERT INTO bench.bare_outbox (id, subject, payload) VALUES ${eventTuples.join(', ')}`, eventParams);
    await client.query('COMMIT');
    return items.map((data, i) => ({ id: ids[i], data, created_at: rows[i].created_at }));
  } catch (error) {
    await client.query('ROLLBACK');
    throw error;
  } finally {
    client.release();
  }
}

async function main(): Promise<void> {
  await prepare();
  const app = Fastify({ bodyLimit: 2 * 1024 * 1024 });
  app.post('/rows', async (request, reply) => {
    const [row] = await writeRows([(request.body as { data: RowData }).data]);
    reply.code(201);
    return { success: true, data: row };
  });
  app.post('/rows/batch', async (request, reply) => {
    const rows = await writeRows((request.body as { rows: Array<{ data: RowData }> }).rows.map((item) => item.data));
    reply.code(201);
    return { success: true, data: rows };
  });
  await app.listen({ port, host: '127.0.0.1' });
  process.stdout.write(`bare ceiling listening on ${port}\n`);
}

main().catch((error) => {
  process.stderr.write(`${error}\n`);
  process.exit(1);
});
