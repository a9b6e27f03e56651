import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { IsDefined, IsIn, IsInt, IsOptional, IsString, Matches, MaxLength, Min, MinLength } from 'class-validator';

/** A media type `type/subtype` (RFC 6838 characters), without parameters. */
export const MIME_TYPE_PATTERN = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/i;
export const MAX_FILENAME_LENGTH = 255;
/** Control characters have no place in a file name that ends up in a Content-Disposition header. */
const PRINTABLE = /^[^\p{Cc}]*$/u;

/** Keeps a value as sent, so `"12"` fails an integer check instead of being converted. */
const AsSent = () => Transform(({ obj, key }) => (obj as Record<string, unknown>)[key]);

export const UPLOAD_PURPOSES = ['attachment', 'import'] as const;
export type UploadPurpose = (typeof UPLOAD_PURPOSES)[number];

/** `POST /tables/{id}/uploads`: the file the client is about to PUT. */
export class CreateUploadBody {
  @ApiProperty({ minLength: 1, maxLength: MAX_FILENAME_LENGTH, example: 'contract.pdf' })
  @AsSent()
  @IsDefined()
  @IsString()
  @MinLength(1)
  @MaxLength(MAX_FILENAME_LENGTH)
  @Matches(PRINTABLE, { message: '$property must not contain control characters' })
  filename!: string;

  @ApiProperty({ example: 'application/pdf', pattern: MIME_TYPE_PATTERN.source })
  @AsSent()
  @IsDefined()
  @IsString()
  @Matches(MIME_TYPE_PATTERN, { message: '$property must be a media type such as image/png' })
  mime_type!: string;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'bytes; at most ATTACHMENT_MAX_BYTES (100 MiB unless configured), or IMPORT_MAX_BYTES (1 GiB) for an import' })
  @AsSent()
  @IsDefined()
  @IsInt()
  @Min(0)
  size!: number;

  @ApiPropertyOptional({ enum: UPLOAD_PURPOSES, default: 'attachment', description: '`import`: the file of an import (`POST /tables/{id}/imports`), never attachable to a row' })
  @IsOptional()
  @IsIn(UPLOAD_PURPOSES)
  purpose?: UploadPurpose;
}

/** The answer to `POST /tables/{id}/uploads`: where and how to PUT the bytes. */
export class UploadTicket {
  @ApiProperty({ format: 'uuid', description: 'put `{upload_id}` in an attachment value once the PUT succeeded' })
  upload_id!: string;

  @ApiProperty({ format: 'uri', description: 'presigned; valid for 15 minutes' })
  upload_url!: string;

  @ApiProperty({ enum: ['PUT'] })
  method!: 'PUT';

  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, description: 'send these with the PUT', example: { 'Content-Type': 'application/pdf' } })
  headers!: Record<string, string>;

  @ApiProperty({ format: 'date-time' })
  expires_at!: string;
}

/** A file held in storage, as every answer and event shows it. */
export class AttachmentFile {
  @ApiProperty({ format: 'uuid', description: 'send `{id}` back in the value to keep the file' })
  id!: string;

  @ApiProperty()
  filename!: string;

  @ApiProperty({ type: 'integer', minimum: 0 })
  size!: number;

  @ApiProperty()
  mime_type!: string;

  @ApiProperty({ format: 'uri', description: 'presigned GET, valid for one hour from the answer that made it' })
  url!: string;
}

/** A link to a file elsewhere, returned as it was given. */
export class AttachmentLink {
  @ApiProperty({ format: 'uri' })
  url!: string;

  @ApiProperty()
  filename!: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 0 })
  size?: number;

  @ApiPropertyOptional()
  mime_type?: string;
}

/** In a written attachment value: a stored file the value keeps, as a read answered it (`{id}` is enough). */
export class AttachmentKept {
  @ApiProperty({ format: 'uuid', description: 'the id of a file the value holds now' })
  id!: string;

  @ApiPropertyOptional({ description: 'when given, must be unchanged' })
  filename?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 0, description: 'when given, must be unchanged' })
  size?: number;

  @ApiPropertyOptional({ description: 'when given, must be unchanged' })
  mime_type?: string;

  @ApiPropertyOptional({ description: 'ignored' })
  url?: string;
}

/** In a written attachment value: a finished upload of this table to attach. */
export class AttachmentUploadRef {
  @ApiProperty({ format: 'uuid' })
  upload_id!: string;
}
