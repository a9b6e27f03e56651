import { ApiError, type ApiClient, type Schema } from '@org-data-platform/sdk';

/**
 * Imports a CSV saved from a spreadsheet: its "E-mail" column fills the `email` field, "Notes" is left out,
 * and every other column fills the field of the same name. Bad lines are skipped and reported by line.
 */
export async function importSpreadsheet(api: ApiClient, tableId: string, csv: string): Promise<Schema<'ImportView'>> {
  const path = { table_id: tableId };
  const bytes = new TextEncoder().encode(csv);
  const upload = await api.POST('/tables/{table_id}/uploads', {
    params: { path },
    body: { filename: 'export.csv', mime_type: 'text/csv', size: bytes.length, purpose: 'import' },
  });
  if (upload.error) throw new ApiError(upload.response.status, upload.error);
  const ticket = upload.data.data;
  const put = await fetch(ticket.upload_url, { method: ticket.method, headers: ticket.headers, body: bytes });
  if (!put.ok) throw new Error(`storage refused the file: ${put.status}`);

  const started = await api.POST('/tables/{table_id}/imports', {
    params: { path },
    body: { upload_id: ticket.upload_id, format: 'csv', on_error: 'skip', columns: { 'E-mail': 'email', Notes: null } },
  });
  if (started.error) throw new ApiError(started.response.status, started.error);
  for (;;) {
    const read = await api.GET('/tables/{table_id}/imports/{import_id}', { params: { path: { ...path, import_id: started.data.data.id } } });
    if (read.error) throw new ApiError(read.response.status, read.error);
    const { status } = read.data.data;
    if (status === 'completed' || status === 'failed') return read.data.data;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}
