/**
 * The bare ceiling: one Fastify process with a `pg` pool that writes the same row and an outbox entry
 * in one transaction, with none of the gateway, NATS or service layers in between.
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
  for (const column of ['title', 'amount', 'status', 'day', 'done', 'email', 'created_at', 'updated_at']) {
    await pool.query(`CREATE INDEX IF NOT EXISTS bare_rows_${column}_idx ON bench.bare_rows (${column}, id)`);
  }
  await pool.query(`CREATE TABLE IF NOT EXISTS bench.bare_outbox (seq bigserial PRIMARY KEY, id uuid NOT NULL UNIQUE, subject text NOT NULL, payload json NOT NULL, created_at timestamptz NOT NULL DEFAULT now())`);
}

async function main(): Promise<void> {
  await prepare();
  const app = Fastify();
  app.post('/rows', async (request, reply) => {
    const { data } = request.body as { data: Record<string, unknown> };
    const id = randomUUID();
    const client = await pool.connect();
    try {
      await client.query('BEGIN');
      const { rows } = await client.query(
        `INSERT INTO bench.bare_rows (id, title, amount, status, day, done, email) VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING created_at`,
        [id, data.title, data.amount, data.status, data.day, data.done, data.email],
      );
      const event = { id: randomUUID(), event: 'row.created', timestamp: new Date().toISOString(), data: { row_id: id, row_data: data } };
      await client.query('INSERT INTO bench.bare_outbox (id, subject, payload) VALUES ($1, $2, $3)', [event.id, 'events.bench.row.created', JSON.stringify(event)]);
      await client.query('COMMIT');
      reply.code(201);
      return { success: true, data: { id, data, created_at: rows[0].created_at } };
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    } finally {
      client.release();
    }
  });
  await app.listen({ port, host: '127.0.0.1' });
  process.stdout.write(`bare ceiling listening on ${port}\n`);
}

main().catch((error) => {
  process.stderr.write(`${error}\n`);
  process.exit(1);
});
