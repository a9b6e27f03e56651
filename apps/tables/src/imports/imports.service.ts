import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { CreateImportBody, ImportView, ServiceResult } from '@contracts';
import { AppError } from '@platform/errors';
import { fileKey } from '../attachments/object-keys';
import { ObjectStorage, StorageUnavailable } from '../attachments/object-storage';
import { UploadsRepository } from '../attachments/uploads.repository';
import type { UserTable } from '../tables/user-table';
import { UserTableRepository } from '../tables/user-table.repository';
import { mapColumns } from './import-columns';
import { fileRecords, UnreadableFile } from './import-records';
import { ImportsRepository } from './imports.repository';

/** Queues imports and reads them; the tables-jobs process runs them. */
@Injectable()
export class ImportsService {
  constructor(
    private readonly tables: UserTableRepository,
    private readonly uploads: UploadsRepository,
    private readonly storage: ObjectStorage,
    private readonly imports: ImportsRepository,
  ) {}

  /**
   * Checks what can be checked before the job runs (the mode, the upload, a CSV header against the fields)
   * and queues the import; a table with an unfinished import refuses another with CONFLICT.
   */
  async create(organizationId: string, tableId: string, body: CreateImportBody): Promise<ServiceResult<ImportView>> {
    const table = await this.tables.find(organizationId, tableId);
    if (!table) throw AppError.notFound('Table');
    const mode = body.mode ?? 'insert';
    if (mode === 'upsert' && !table.fields.some((field) => field.slug === body.upsert_on && field.options.is_unique)) {
      throw AppError.validation('upsert_on', 'must be the slug of an is_unique field of this table with mode "upsert"');
    }
    if (mode === 'insert' && body.upsert_on !== undefined) throw AppError.validation('upsert_on', 'is only taken with mode "upsert"');
    const columns = body.columns ?? null;
    for (const [column, slug] of Object.entries(columns ?? {})) {
      if (slug !== null && typeof slug !== 'string') throw AppError.validation(`columns.${column}`, 'must be a field slug or null');
    }
    const uploadId = body.upload_id.toLowerCase();
    const [upload] = await this.uploads.findOfTable(organizationId, tableId, [uploadId], 'import');
    if (!upload) throw AppError.validation('upload_id', 'is not an upload of this table made with purpose "import"');
    const key = fileKey(organizationId, tableId, uploadId);
    const size = await this.storageCall(() => this.storage.sizeOf(key));
    if (size === undefined) throw AppError.validation('upload_id', 'has not been uploaded yet: PUT the file to its upload_url first');
    if (size !== upload.size) throw AppError.validation('upload_id', `holds ${size} bytes, not the ${upload.size} declared`);
    if (body.format === 'csv') await this.checkHeader(table, key, columns ?? undefined);
    const created = await this.imports.insert(organizationId, tableId, {
      id: randomUUID(),
      uploadId,
      format: body.format,
      mode,
      upsertOn: body.upsert_on ?? null,
      onError: body.on_error ?? 'abort',
      columns,
    });
    if (!created) throw AppError.conflict('An import of this table is already queued or running');
    return { data: created };
  }

  /** The header line only: the file stops streaming once it is read. */
  private async checkHeader(table: UserTable, key: string, columns?: Record<string, string | null>): Promise<void> {
    const bytes = await this.storageCall(() => this.storage.read(key));
    try {
      const first = (await fileRecords(bytes, 'csv').next()).value;
      if (!first) throw AppError.validation('upload_id', 'is empty: a CSV import needs a header line');
      if ('problem' in first) throw AppError.validation('upload_id', `line ${first.line}: ${first.problem}`);
      if ('cells' in first) mapColumns(first.cells, table.fields, columns);
    } catch (error) {
      if (error instanceof UnreadableFile) throw AppError.validation('upload_id', `line ${error.line}: the file ${error.message}`);
      throw error;
    } finally {
      bytes.destroy();
    }
  }

  private async storageCall<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof StorageUnavailable) throw AppError.internal('File storage did not answer; try again');
      throw error;
    }
  }

  async get(organizationId: string, tableId: string, importId: string): Promise<ServiceResult<ImportView>> {
    const found = await this.imports.find(organizationId, tableId, importId);
    if (!found) throw AppError.notFound('Import');
    return { data: found };
  }

  async list(organizationId: string, tableId: string, page: number, limit: number): Promise<ServiceResult<ImportView[]>> {
    if (!(await this.tables.find(organizationId, tableId))) throw AppError.notFound('Table');
    const { items, total } = await this.imports.list(organizationId, tableId, limit, (page - 1) * limit);
    return { data: items, pagination: { page, limit, total } };
  }
}
