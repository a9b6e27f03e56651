import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { CreateExportBody, ExportView, ServiceResult } from '@contracts';
import { AppError } from '@platform/errors';
import { ObjectStorage } from '../attachments/object-storage';
import { UserTableRepository } from '../tables/user-table.repository';
import { exportFile } from './export-file';
import { ExportSpec, exportStatement } from './export-statement';
import { ExportRow, ExportsRepository } from './exports.repository';

/** Queues exports and reads them; the tables-jobs process runs them. */
@Injectable()
export class ExportsService {
  constructor(
    private readonly tables: UserTableRepository,
    private readonly exports: ExportsRepository,
    private readonly storage: ObjectStorage,
  ) {}

  /** Checks the filter, the sort and the fields against the table as the job will, then queues it. */
  async create(organizationId: string, tableId: string, body: CreateExportBody): Promise<ServiceResult<ExportView>> {
    const table = await this.tables.find(organizationId, tableId);
    if (!table) throw AppError.notFound('Table');
    const spec: ExportSpec = { format: body.format, filter: body.filter ?? null, sort: body.sort ?? null, order: body.order ?? null, fields: body.fields ?? null };
    exportStatement(table, spec);
    return { data: await this.view(await this.exports.insert(organizationId, tableId, randomUUID(), spec)) };
  }

  async get(organizationId: string, tableId: string, exportId: string): Promise<ServiceResult<ExportView>> {
    const found = await this.exports.find(organizationId, tableId, exportId);
    if (!found) throw AppError.notFound('Export');
    return { data: await this.view(found) };
  }

  /** A completed export past `expires_at` shows `expired`: its file is gone, or about to be. */
  private async view(row: ExportRow): Promise<ExportView> {
    const expired = row.status === 'completed' && row.expires_at !== null && row.expires_at.getTime() <= Date.now();
    const status = expired ? 'expired' : row.status;
    let downloadUrl: string | null = null;
    if (status === 'completed') {
      const file = exportFile(row.organization_id, row.table_id, row.id, row.format);
      downloadUrl = await this.storage.presignDownload(file.key, file.filename, file.mimeType);
    }
    return {
      id: row.id,
      table_id: row.table_id,
      status,
      format: row.format,
      rows_done: Number(row.rows_done),
      created_at: row.created_at.toISOString(),
      finished_at: row.finished_at?.toISOString() ?? null,
      download_url: downloadUrl,
      expires_at: row.expires_at?.toISOString() ?? null,
    };
  }
}
