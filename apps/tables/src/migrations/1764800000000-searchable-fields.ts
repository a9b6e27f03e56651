import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Trigram indexes became something a field asks for (`options.searchable`) instead of something every
 * text-like field had. The fields that have one now, built or still pending, keep it: this marks them
 * `searchable`, so their tables' `contains` filters stay as fast as they were and a later change of the
 * field sees the index it has. Spelled out as it ran, like every migration.
 */
export class SearchableFields1764800000000 implements MigrationInterface {
  name = 'SearchableFields1764800000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(
      `UPDATE tables.fields f SET options = f.options || '{"searchable": true}'
        WHERE EXISTS (SELECT 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
                       WHERE n.nspname = 'tables' AND c.relname = 'sx_' || replace(f.id::text, '-', ''))
           OR EXISTS (SELECT 1 FROM tables.pending_indexes p WHERE p.index_name = 'sx_' || replace(f.id::text, '-', ''))`,
    );
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`UPDATE tables.fields SET options = options - 'searchable' WHERE options ? 'searchable'`);
  }
}
