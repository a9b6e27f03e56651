import { ApiError, type ApiClient } from '@org-data-platform/sdk';

/**
 * Exports the rows scoring at least `minScore`, highest first, with two of their fields, as CSV; waits for
 * the file and answers its text. (A file of a million rows is better streamed to disk: `file.body`.)
 */
export async function exportTopScores(api: ApiClient, tableId: string, minScore: number): Promise<string> {
  const path = { table_id: tableId };
  const started = await api.POST('/tables/{table_id}/exports', {
    params: { path },
    body: { format: 'csv', filter: { score: { gte: minScore } }, sort: 'score', order: 'desc', fields: ['email', 'score'] },
  });
  if (started.error) throw new ApiError(started.response.status, started.error);
  for (;;) {
    const read = await api.GET('/tables/{table_id}/exports/{export_id}', { params: { path: { ...path, export_id: started.data.data.id } } });
    if (read.error) throw new ApiError(read.response.status, read.error);
    const { status, download_url } = read.data.data;
    if (status === 'completed' && download_url) {
      const file = await fetch(download_url);
      if (!file.ok) throw new Error(`storage refused the file: ${file.status}`);
      return file.text();
    }
    if (status !== 'queued' && status !== 'running') throw new Error(`the export ended ${status}`);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
}
