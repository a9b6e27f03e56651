import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { CreateUploadBody, ServiceResult, UploadTicket } from '@contracts';
import { AppError } from '@platform/errors';
import { TablesConfig } from '../tables.config';
import { fileKey } from './object-keys';
import { ObjectStorage } from './object-storage';
import { UploadsRepository } from './uploads.repository';

/** Hands out presigned uploads: the bytes go from the client straight to storage, never through the API. */
@Injectable()
export class UploadsService {
  constructor(
    private readonly uploads: UploadsRepository,
    private readonly storage: ObjectStorage,
    private readonly config: TablesConfig,
  ) {}

  async create(organizationId: string, tableId: string, body: CreateUploadBody): Promise<ServiceResult<UploadTicket>> {
    if (body.size > this.config.ATTACHMENT_MAX_BYTES) throw AppError.validation('size', `must be at most ${this.config.ATTACHMENT_MAX_BYTES} bytes`);
    const id = randomUUID();
    const upload = { id, organizationId, tableId, filename: body.filename, mimeType: body.mime_type, size: body.size };
    if (!(await this.uploads.insert(upload))) throw AppError.notFound('Table');
    const presigned = await this.storage.presignUpload(fileKey(organizationId, tableId, id), body.mime_type, body.size);
    return {
      data: { upload_id: id, upload_url: presigned.url, method: 'PUT', headers: presigned.headers, expires_at: presigned.expiresAt.toISOString() },
    };
  }
}
