import { randomUUID } from 'node:crypto';
import { migrateSchema } from '@platform/persistence';
import { Client } from 'pg';
import { fieldColumnName, fieldSearchIndexName, rowsTableName } from '../storage/identifiers';
import { Tables1763710000000 } from './1763710000000-tables';
import { AttachmentFiles1764000019000 } from './1764000019000-attachment-files';
import { TextSearch1764100000000 } from './1764100000000-text-search';

// Runs against the real Postgres, in a database of its own.
const ADMIN_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const DATABASE = `text_search_migration_spec_${process.pid}`;
const url = ADMIN_URL.replace(/\/[^/]*$/, `/${DATABASE}`);

describe('the text-search migration on fields that existed before it', () => {
  const admin = new Client({ connectionString: ADMIN_URL });
  const db = new Client({ connectionString: url });
  const tableId = randomUUID();
  const fields = (['text', 'long_text', 'email', 'url', 'phone', 'select', 'number', 'date', 'multi_select'] as const).map((type) => ({ type, id: randomUUID() }));

  beforeAll(async () => {
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
    await migrateSchema({ schema: 'tables', url, migrations: [Tables1763710000000, AttachmentFiles1764000019000] });
    await db.connect();
    const storage = rowsTableName(tableId);
    await db.query(`INSERT INTO tables.user_tables (id, organization_id, name, slug, storage_name) VALUES ($1, $2, 'Old', 'old', $3)`, [tableId, randomUUID(), storage]);
    const columns = fields.map((field) => `${fieldColumnName(field.id)} text`).join(', ');
    await db.query(`CREATE TABLE tables.${storage} (id uuid PRIMARY KEY, ${columns})`);
    for (const [position, field] of fields.entries()) {
      await db.query(`INSERT INTO tables.fields (id, table_id, name, slug, field_type, column_name, position) VALUES ($1, $2, $3, $3, $4, $5, $6)`, [
        field.id, tableId, field.type, field.type, fieldColumnName(field.id), position,
      ]);
    }
  });

  afterAll(async () => {
    await db.end();
    await admin.query(`DROP DATABASE IF EXISTS ${DATABASE} WITH (FORCE)`);
    await admin.end();
  });

  it('gives each text-like field the trigram index the service gives a new one, under the same name, and no other field one', async () => {
    const applied = await migrateSchema({ schema: 'tables', url, migrations: [Tables1763710000000, AttachmentFiles1764000019000, TextSearch1764100000000] });
    expect(applied).toEqual(['TextSearch1764100000000']);
    const { rows } = await db.query<{ indexname: string; indexdef: string }>(`SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'tables' AND tablename = $1 AND indexname LIKE 'sx\\_%'`, [
      rowsTableName(tableId),
    ]);
    const searchable = fields.filter((field) => ['text', 'long_text', 'email', 'url', 'phone', 'select'].includes(field.type));
    expect(rows.map((row) => row.indexname).sort()).toEqual(searchable.map((field) => fieldSearchIndexName(field.id)).sort());
    for (const field of searchable) {
      const { indexdef } = rows.find((row) => row.indexname === fieldSearchIndexName(field.id))!;
      expect(indexdef).toContain(`USING gin (${fieldColumnName(field.id)} tables.gin_trgm_ops)`);
    }
  });
});
