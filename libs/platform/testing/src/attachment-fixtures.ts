import { randomBytes } from 'node:crypto';
import { HeadObjectCommand, S3Client, S3ServiceException } from '@aws-sdk/client-s3';
import type { ApiClient } from './api-client';
import { stackEnv } from './stack-state';

export interface UploadedFile {
  uploadId: string;
  bytes: Buffer;
  filename: string;
  mimeType: string;
}

/** Asks for an upload and PUTs the bytes to its presigned URL, as a client would. */
export async function uploadFile(api: ApiClient, tableId: string, options: { filename?: string; mimeType?: string; bytes?: Buffer } = {}): Promise<UploadedFile> {
  const bytes = options.bytes ?? randomBytes(2_000 + Math.floor(Math.random() * 1_000));
  const filename = options.filename ?? 'report.bin';
  const mimeType = options.mimeType ?? 'application/octet-stream';
  const ticket = await api.post(`/tables/${tableId}/uploads`, { filename, mime_type: mimeType, size: bytes.length });
  if (ticket.status !== 201) throw new Error(`upload refused: ${ticket.status} ${JSON.stringify(ticket.body)}`);
  const put = await fetch(ticket.body.data.upload_url, { method: 'PUT', headers: ticket.body.data.headers, body: bytes });
  if (!put.ok) throw new Error(`PUT to storage failed: ${put.status} ${await put.text()}`);
  return { uploadId: ticket.body.data.upload_id, bytes, filename, mimeType };
}

/** Downloads through a presigned URL; the status tells whether the object still exists. */
export async function download(url: string): Promise<{ status: number; bytes: Buffer; headers: Headers }> {
  const res = await fetch(url);
  return { status: res.status, bytes: Buffer.from(await res.arrayBuffer()), headers: res.headers };
}

/** The test stack's storage, read directly: whether an object is there, whatever the API says. */
export function storageClient(env: Record<string, string> = stackEnv()) {
  const client = new S3Client({
    endpoint: env.S3_ENDPOINT,
    region: env.S3_REGION,
    forcePathStyle: true,
    credentials: { accessKeyId: env.S3_ACCESS_KEY_ID, secretAccessKey: env.S3_SECRET_ACCESS_KEY },
  });
  return {
    exists: async (key: string): Promise<boolean> => {
      try {
        await client.send(new HeadObjectCommand({ Bucket: env.S3_BUCKET, Key: key }));
        return true;
      } catch (error) {
        if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 404) return false;
        throw error;
      }
    },
    close: () => client.destroy(),
  };
}

export function objectKey(orgId: string, tableId: string, fileId: string): string {
  return `${orgId}/${tableId}/${fileId}`;
}

/** Uploads a file for an import (purpose "import"), as a client would. */
export async function uploadImportFile(api: ApiClient, tableId: string, content: string | Buffer, filename = 'rows.csv'): Promise<string> {
  const bytes = typeof content === 'string' ? Buffer.from(content, 'utf8') : content;
  const ticket = await api.post(`/tables/${tableId}/uploads`, { filename, mime_type: 'text/csv', size: bytes.length, purpose: 'import' });
  if (ticket.status !== 201) throw new Error(`import upload refused: ${ticket.status} ${JSON.stringify(ticket.body)}`);
  const put = await fetch(ticket.body.data.upload_url, { method: 'PUT', headers: ticket.body.data.headers, body: bytes });
  if (!put.ok) throw new Error(`PUT to storage failed: ${put.status} ${await put.text()}`);
  return ticket.body.data.upload_id;
}

/** Reads an import until it has ended; answers it. */
export async function importEnded(api: ApiClient, tableId: string, importId: string, timeoutMs = 30_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await api.get(`/tables/${tableId}/imports/${importId}`);
    if (res.status !== 200) throw new Error(`import read failed: ${res.status} ${JSON.stringify(res.body)}`);
    if (res.body.data.status === 'completed' || res.body.data.status === 'failed') return res.body.data;
    if (Date.now() > deadline) throw new Error(`import ${importId} still ${res.body.data.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Reads an export until it has ended; answers it. */
export async function exportEnded(api: ApiClient, tableId: string, exportId: string, timeoutMs = 60_000): Promise<any> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await api.get(`/tables/${tableId}/exports/${exportId}`);
    if (res.status !== 200) throw new Error(`export read failed: ${res.status} ${JSON.stringify(res.body)}`);
    if (res.body.data.status !== 'queued' && res.body.data.status !== 'running') return res.body.data;
    if (Date.now() > deadline) throw new Error(`export ${exportId} still ${res.body.data.status} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
