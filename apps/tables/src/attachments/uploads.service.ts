import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { CreateUploadBody, ServiceResult, UploadTicket } from '@contracts';
import { AppError, ErrorCode } from '@platform/errors';
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
    const purpose = body.purpose ?? 'attachment';
    const limit = purpose === 'import' ? this.config.IMPORT_MAX_BYTES : this.config.ATTACHMENT_MAX_BYTES;
    if (body.size > limit) throw AppError.validation('size', `must be at most ${limit} bytes${purpose === 'import' ? ' for an import' : ''}`);
    const id = randomUUID();
    const upload = { id, organizationId, tableId, filename: body.filename, mimeType: body.mime_type, size: body.size, purpose };
    const outcome = await this.uploads.insert(upload, this.config.UPLOAD_TICKETS_PER_MINUTE);
    if (outcome === 'no-table') throw AppError.notFound('Table');
    if (outcome === 'no-attachment-field') {
      throw AppError.badRequest('This table has no attachment field: an upload ticket is for a file that a row of the table will hold, or for an import (purpose "import")');
    }
    if (outcome === 'rate-limited') {
      throw new AppError(ErrorCode.RateLimited, `An organization may take ${this.config.UPLOAD_TICKETS_PER_MINUTE} upload tickets a minute; try again shortly`);
    }
    const presigned = await this.storage.presignUpload(fileKey(organizationId, tableId, id), body.mime_type, body.size);
    return {
      data: { upload_id: id, upload_url: presigned.url, method: 'PUT', headers: presigned.headers, expires_at: presigned.expiresAt.toISOString() },
    };
  }
}
