import type { DataClient, Schema } from '@org-data-platform/sdk';

/**
 * Uploads a file for a table: the API hands out a ticket (POST /tables/{id}/uploads), and the bytes go
 * straight to object storage with the ticket's method and headers. XMLHttpRequest rather than fetch,
 * because only it reports the upload's progress.
 */
export async function uploadFile(
  api: DataClient,
  tableId: string,
  file: File,
  onProgress: (sent: number, total: number) => void,
  purpose?: 'import',
): Promise<Schema<'UploadTicket'>> {
  const { data: ticket } = await api.POST('/tables/{table_id}/uploads', {
    params: { path: { table_id: tableId } },
    body: { filename: file.name, mime_type: file.type || 'application/octet-stream', size: file.size, ...(purpose ? { purpose } : {}) },
  });
  await new Promise<void>((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open(ticket.method, ticket.upload_url);
    for (const [name, value] of Object.entries(ticket.headers ?? {})) request.setRequestHeader(name, String(value));
    request.upload.onprogress = (event) => onProgress(event.loaded, event.lengthComputable ? event.total : file.size);
    request.onload = () => (request.status >= 200 && request.status < 300 ? resolve() : reject(new Error(`Storage refused the file (HTTP ${request.status})`)));
    request.onerror = () => reject(new Error('The file could not reach storage (network error or CORS)'));
    request.send(file);
  });
  onProgress(file.size, file.size);
  return ticket;
}
