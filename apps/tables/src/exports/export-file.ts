import type { ExportFormat } from '@contracts';
import { fileKey } from '../attachments/object-keys';

const MIME_TYPES: Record<ExportFormat, string> = { csv: 'text/csv; charset=utf-8', ndjson: 'application/x-ndjson' };

/** Where an export's file is kept (under its table's prefix, so deleting the table removes it) and how it is served. */
export function exportFile(organizationId: string, tableId: string, exportId: string, format: ExportFormat) {
  return { key: fileKey(organizationId, tableId, exportId), filename: `export-${exportId}.${format}`, mimeType: MIME_TYPES[format] };
}
