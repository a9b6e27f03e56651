import { randomUUID } from 'node:crypto';
import { migrateSchema } from '@platform/persistence';
import { Client } from 'pg';
import { tablesSchema } from '../tables-schema';
import { SearchableFields1764800000000 } from './1764800000000-searchable-fields';
import { fieldColumnName, fieldSearchIndexName, rowsTableName } from '../storage/identifiers';

// Runs against the real Postgres, in a database of its own.
const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DATABASE = `searchable_fields_migration_spec_${process.pid}`;
const url = ADMIN_URL.replace(/\/[^/]*$/, `/${DATABASE}`);

describe('the searchable-fields migration on fields that existed before it', () => {
  const admin = new Client({ connectionString: ADMIN_URL });
  const db = new Client({ connectionString: url });
  const tableId = randomUUID();
  const storage = rowsTableName(tableId);
  // The migrations up to this one, which later ones do not concern.
  const all = tablesSchema(url).migrations as Array<new () => unknown>;
  const migrations = all.slice(0, all.indexOf(SearchableFields1764800000000) + 1);
  // A built trigram index, one still pending, one whose index an operator dropped, and a number field.
  const fields = { built: randomUUID(), pending: randomUUID(), dropped: randomUUID(), number: randomUUID() };

  beforeAll(async () => {
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
    await migrateSchema({ schema: 'tables', url, migrations: migrations.slice(0, -1) });
    await db.connect();
    await db.query(`INSERT INTO tables.user_tables (id, organization_id, name, slug, storage_name) VALUES ($1, $2, 'Old', 'old', $3)`, [tableId, randomUUID(), storage]);
    const types = { built: 'text', pending: 'email', dropped: 'url', number: 'number' } as const;
    await db.query(`CREATE TABLE tables.${storage} (id uuid PRIMARY KEY, ${Object.values(fields).map((id) => `${fieldColumnName(id)} text`).join(', ')})`);
    for (const [position, [key, id]] of Object.entries(fields).entries()) {
      await db.query(`INSERT INTO tables.fields (id, table_id, name, slug, field_type, column_name, position, options) VALUES ($1, $2, $3, $3, $4, $5, $6, $7)`, [
        id, tableId, key, types[key as keyof typeof types], fieldColumnName(id), position, key === 'built' ? '{"is_unique": true}' : '{}',
      ]);
    }
    await db.query(`CREATE INDEX ${fieldSearchIndexName(fields.built)} ON tables.${storage} USING gin (${fieldColumnName(fields.built)} tables.gin_trgm_ops)`);
    await db.query(`INSERT INTO tables.pending_indexes (index_name, table_id, field_id, definition) VALUES ($1, $2, $3, 'unused here')`, [
      fieldSearchIndexName(fields.pending), tableId, fields.pending,
    ]);
  });

  afterAll(async () => {
    await db.end();
    await admin.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
    await admin.end();
  });

  it('marks searchable the fields that have a trigram index, built or pending, keeps their other options, and no other field', async () => {
    const applied = await migrateSchema({ schema: 'tables', url, migrations });
    expect(applied).toEqual(['SearchableFields1764800000000']);
    const { rows } = await db.query<{ id: string; options: Record<string, unknown> }>('SELECT id, options FROM tables.fields WHERE table_id = $1', [tableId]);
    const optionsOf = (id: string) => rows.find((row) => row.id === id)?.options;
    expect(optionsOf(fields.built)).toEqual({ is_unique: true, searchable: true });
    expect(optionsOf(fields.pending)).toEqual({ searchable: true });
    expect(optionsOf(fields.dropped)).toEqual({});
    expect(optionsOf(fields.number)).toEqual({});
  });
});
