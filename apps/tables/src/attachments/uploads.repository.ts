import { Injectable } from '@nestjs/common';
import type { UploadPurpose } from '@contracts';
import { Database, Sql } from '@platform/persistence';

export interface UploadRecord {
  id: string;
  organizationId: string;
  tableId: string;
  filename: string;
  mimeType: string;
  size: number;
  attached: boolean;
  purpose: UploadPurpose;
}

interface UploadRow {
  id: string;
  organization_id: string;
  table_id: string;
  filename: string;
  mime_type: string;
  size: string;
  attached_at: Date | null;
  purpose: UploadPurpose;
}

function toRecord(row: UploadRow): UploadRecord {
  return {
    id: row.id,
    organizationId: row.organization_id,
    tableId: row.table_id,
    filename: row.filename,
    mimeType: row.mime_type,
    size: Number(row.size),
    attached: row.attached_at !== null,
    purpose: row.purpose,
  };
}

/** Presigned uploads, from the moment they are handed out until their file leaves the data. */
@Injectable()
export class UploadsRepository {
  constructor(private readonly db: Database) {}

  /**
   * Inserts the upload when the organization has the table, the table has an attachment field (for an upload
   * with purpose `attachment`) and the
   * organization took fewer than `perMinute` tickets in the last minute; otherwise answers why not.
   * Tickets of one organization take turns on a transaction lock, so racing ones cannot pass the count together.
   */
  async insert(upload: Omit<UploadRecord, 'attached'>, perMinute: number): Promise<'inserted' | 'no-table' | 'no-attachment-field' | 'rate-limited'> {
    return this.db.transaction(async (tx) => {
      await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended('uploads:' || $1::text, 0))`, [upload.organizationId]);
      const {
        rows: [state],
      } = await tx.query<{ table_found: boolean; attachable: boolean; recent: number }>(
        `SELECT EXISTS (SELECT 1 FROM tables.user_tables WHERE id = $1 AND organization_id = $2) AS table_found,
           EXISTS (SELECT 1 FROM tables.fields WHERE table_id = $1 AND field_type = 'attachment') AS attachable,
           (SELECT count(*)::int FROM tables.uploads WHERE organization_id = $2 AND created_at > now() - interval '1 minute') AS recent`,
        [upload.tableId, upload.organizationId],
      );
      if (!state.table_found) return 'no-table';
      if (upload.purpose === 'attachment' && !state.attachable) return 'no-attachment-field';
      if (state.recent >= perMinute) return 'rate-limited';
      await tx.query(
        `INSERT INTO tables.uploads (id, organization_id, table_id, filename, mime_type, size, purpose) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [upload.id, upload.organizationId, upload.tableId, upload.filename, upload.mimeType, upload.size, upload.purpose],
      );
      return 'inserted';
    });
  }

  /** The table's uploads for `purpose` among `ids`; ids of other tables, organizations or purposes are simply not there. */
  async findOfTable(organizationId: string, tableId: string, ids: readonly string[], purpose: UploadPurpose = 'attachment'): Promise<UploadRecord[]> {
    if (ids.length === 0) return [];
    const { rows } = await this.db.query<UploadRow>(
      `SELECT id, organization_id, table_id, filename, mime_type, size, attached_at, purpose FROM tables.uploads
       WHERE id = ANY($1::uuid[]) AND organization_id = $2 AND table_id = $3 AND purpose = $4`,
      [ids, organizationId, tableId, purpose],
    );
    return rows.map(toRecord);
  }

  /**
   * Marks uploads attached in the caller's transaction; answers the ids it marked. An upload that a
   * concurrent change attached first (or the sweep removed) is missing from the answer.
   */
  async claim(db: Sql, ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    const { rows } = await db.query<{ id: string }>(
      'UPDATE tables.uploads SET attached_at = now() WHERE id = ANY($1::uuid[]) AND attached_at IS NULL RETURNING id',
      [ids],
    );
    return new Set(rows.map((row) => row.id));
  }
}
