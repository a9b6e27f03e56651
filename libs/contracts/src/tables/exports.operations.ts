import { operation } from '../operation';
import { CreateExportBody, ExportView } from './export.dto';

const exportsTag = { tag: 'exports' } as const;

/** Exports of a table's rows to a file, queued here and run by tables-jobs (the tables service, queue group `tables`). */
export const ExportsOperations = {
  create: operation({
    ...exportsTag,
    operationId: 'createExport',
    summary: "Export the table's rows to a CSV or NDJSON file, in the background",
    description:
      'The rows of one snapshot, filtered, sorted and with the fields asked for. Answers 202 with the queued export; read it ' +
      'again to follow `rows_done`. Once `completed` it has a `download_url`; the file is removed at `expires_at`, 24 h after it was written.',
    method: 'POST',
    path: 'tables/:table_id/exports',
    scope: 'tables:read',
    subject: 'tables.exports.create',
    status: 202,
    body: CreateExportBody,
    answers: ExportView,
  }),
  get: operation({
    ...exportsTag,
    operationId: 'getExport',
    summary: 'One export, with its progress and, once completed, a download link',
    method: 'GET',
    path: 'tables/:table_id/exports/:export_id',
    scope: 'tables:read',
    subject: 'tables.exports.get',
    answers: ExportView,
  }),
};
