import type { Readable } from 'node:stream';
import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import type { S3Client, S3ClientConfig } from '@aws-sdk/client-s3';
import { TablesConfig } from '../tables.config';

/**
 * The AWS SDK, loaded on the first storage call rather than at start-up: it is the largest thing the
 * service would otherwise hold in memory, and a process that sees no upload never needs it.
 */
type Sdk = typeof import('@aws-sdk/client-s3') & Pick<typeof import('@aws-sdk/s3-request-presigner'), 'getSignedUrl'> & Pick<typeof import('@aws-sdk/lib-storage'), 'Upload'>;
let sdk: Promise<Sdk> | undefined;
const loadSdk = (): Promise<Sdk> =>
  (sdk ??= Promise.all([import('@aws-sdk/client-s3'), import('@aws-sdk/s3-request-presigner'), import('@aws-sdk/lib-storage')]).then(([s3, presigner, storage]) => ({
    ...s3,
    getSignedUrl: presigner.getSignedUrl,
    Upload: storage.Upload,
  })));

/** How long a client has to PUT the bytes of an upload. */
export const UPLOAD_URL_TTL_SECONDS = 15 * 60;
/** How long a file's download link works after the read that made it. */
export const DOWNLOAD_URL_TTL_SECONDS = 60 * 60;
/**
 * Parts of a streamed upload: S3's smallest, so a stream of any length holds at most UPLOAD_PARTS_IN_FLIGHT
 * of them in memory (20 MiB), enough in flight that the stream rarely waits on storage.
 */
const UPLOAD_PART_BYTES = 5 * 1024 * 1024;
const UPLOAD_PARTS_IN_FLIGHT = 4;
/** S3 deletes at most this many keys in one request. */
export const DELETE_BATCH = 1_000;

export interface PresignedUpload {
  url: string;
  headers: Record<string, string>;
  expiresAt: Date;
}

/** Storage did not answer as it should (down, refusing, misconfigured): a failure of ours, never the client's. */
export class StorageUnavailable extends Error {
  constructor(operation: string, cause: unknown) {
    super(`object storage ${operation} failed: ${(cause as Error)?.message ?? String(cause)}`, { cause });
    this.name = 'StorageUnavailable';
  }
}

/** `filename*=` (RFC 6266 / 5987) so any file name survives; the plain `filename=` is an ASCII fallback. */
function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]|["\\]/g, '_');
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/**
 * The bucket that holds attachment files, through the AWS SDK. The API never carries file bytes: clients
 * PUT and GET them with presigned URLs, and the service only checks, lists and deletes objects.
 */
@Injectable()
export class ObjectStorage implements OnApplicationShutdown {
  private readonly clientConfig: S3ClientConfig;
  /** Signs the URLs clients use: the same credentials, addressed at the endpoint clients reach. */
  private readonly signerConfig: S3ClientConfig;
  private clients?: Promise<{ sdk: Sdk; client: S3Client; signer: S3Client }>;
  private readonly bucket: string;

  constructor(config: TablesConfig) {
    this.bucket = config.S3_BUCKET;
    const base = {
      region: config.S3_REGION,
      credentials: { accessKeyId: config.S3_ACCESS_KEY_ID, secretAccessKey: config.S3_SECRET_ACCESS_KEY },
      forcePathStyle: config.S3_FORCE_PATH_STYLE,
      // Checksums only where S3 demands them: a presigned PUT must not carry one for an empty body.
      requestChecksumCalculation: 'WHEN_REQUIRED' as const,
      responseChecksumValidation: 'WHEN_REQUIRED' as const,
    };
    this.clientConfig = {
      ...base,
      endpoint: config.S3_ENDPOINT || undefined,
      // A request that waits on storage must still answer inside the gateway's deadline.
      maxAttempts: 2,
      requestHandler: { connectionTimeout: 2_000, requestTimeout: 5_000 },
    };
    this.signerConfig = { ...base, endpoint: config.S3_PUBLIC_ENDPOINT || config.S3_ENDPOINT || undefined };
  }

  private sdk(): Promise<{ sdk: Sdk; client: S3Client; signer: S3Client }> {
    return (this.clients ??= loadSdk().then((sdk) => ({ sdk, client: new sdk.S3Client(this.clientConfig), signer: new sdk.S3Client(this.signerConfig) })));
  }

  /** A PUT URL that accepts exactly `size` bytes of `mimeType` (both are signed). */
  async presignUpload(key: string, mimeType: string, size: number): Promise<PresignedUpload> {
    const { sdk, signer } = await this.sdk();
    const { PutObjectCommand, getSignedUrl } = sdk;
    const command = new PutObjectCommand({ Bucket: this.bucket, Key: key, ContentType: mimeType, ContentLength: size });
    const url = await getSignedUrl(signer, command, {
      expiresIn: UPLOAD_URL_TTL_SECONDS,
      signableHeaders: new Set(['content-type', 'content-length']),
    });
    return { url, headers: { 'Content-Type': mimeType }, expiresAt: new Date(Date.now() + UPLOAD_URL_TTL_SECONDS * 1_000) };
  }

  /** A GET URL that serves the file under its name and type. */
  async presignDownload(key: string, filename: string, mimeType: string): Promise<string> {
    const { sdk, signer } = await this.sdk();
    const command = new sdk.GetObjectCommand({
      Bucket: this.bucket,
      Key: key,
      ResponseContentType: mimeType,
      ResponseContentDisposition: contentDisposition(filename),
    });
    return sdk.getSignedUrl(signer, command, { expiresIn: DOWNLOAD_URL_TTL_SECONDS });
  }

  /** The object's size, or undefined when there is no such object. */
  async sizeOf(key: string): Promise<number | undefined> {
    const { sdk, client } = await this.sdk();
    try {
      const head = await client.send(new sdk.HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return head.ContentLength ?? 0;
    } catch (error) {
      if (error instanceof sdk.S3ServiceException && error.$metadata.httpStatusCode === 404) return undefined;
      throw new StorageUnavailable('HEAD', error);
    }
  }

  /** The object's bytes as they stream in. */
  async read(key: string): Promise<Readable> {
    const { sdk, client } = await this.sdk();
    try {
      const object = await client.send(new sdk.GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return object.Body as Readable;
    } catch (error) {
      throw new StorageUnavailable('GET', error);
    }
  }

  /**
   * Writes a stream of unknown length to `key`, part by part as it comes (a multipart upload, or one PUT
   * when it is short), in constant memory. A stream that fails fails the upload, which leaves no object.
   */
  async write(key: string, body: Readable, contentType: string): Promise<void> {
    const { sdk, client } = await this.sdk();
    const upload = new sdk.Upload({
      client,
      params: { Bucket: this.bucket, Key: key, Body: body, ContentType: contentType },
      partSize: UPLOAD_PART_BYTES,
      queueSize: UPLOAD_PARTS_IN_FLIGHT,
    });
    try {
      await upload.done();
    } catch (error) {
      // The stream's own failure (the database, the process stopping) says more than the upload's.
      if (body.errored) throw body.errored;
      throw new StorageUnavailable('upload', error);
    }
  }

  /** Deletes the keys (absent ones count as deleted); throws unless every one is gone. */
  async deleteKeys(keys: readonly string[]): Promise<void> {
    const { sdk, client } = await this.sdk();
    for (let i = 0; i < keys.length; i += DELETE_BATCH) {
      const batch = keys.slice(i, i + DELETE_BATCH);
      let failed: string | undefined;
      try {
        const result = await client.send(
          new sdk.DeleteObjectsCommand({ Bucket: this.bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } }),
        );
        const [first] = result.Errors ?? [];
        if (first) failed = `${first.Code ?? 'error'} on ${result.Errors?.length} of ${batch.length} keys`;
      } catch (error) {
        throw new StorageUnavailable('DeleteObjects', error);
      }
      if (failed) throw new StorageUnavailable('DeleteObjects', new Error(failed));
    }
  }

  /** Up to one batch of keys under `prefix`. */
  async keysUnder(prefix: string): Promise<string[]> {
    const { sdk, client } = await this.sdk();
    try {
      const page = await client.send(new sdk.ListObjectsV2Command({ Bucket: this.bucket, Prefix: prefix, MaxKeys: DELETE_BATCH }));
      return (page.Contents ?? []).flatMap((object) => (object.Key ? [object.Key] : []));
    } catch (error) {
      throw new StorageUnavailable('ListObjectsV2', error);
    }
  }

  async onApplicationShutdown(): Promise<void> {
    const clients = await this.clients?.catch(() => undefined);
    clients?.client.destroy();
    clients?.signer.destroy();
  }
}
