import { createHash } from 'node:crypto';
import { IsIntBetween, IsUrlWithScheme, ProductionRule, ServiceConfig } from '@platform/config';
import { IsBoolean, IsString, Matches, MaxLength, MinLength, ValidateIf } from 'class-validator';
import { DEVELOPMENT_STORAGE_CREDENTIALS, IsStorageSecret } from './attachments/storage-credentials';

/** Only for development and tests: anyone can read it here, so production refuses to start without a real key. */
const DEVELOPMENT_CURSOR_KEY = createHash('sha256').update('org-data-platform development row cursor key').digest();
const MIN_CURSOR_KEY_LENGTH = 32;

/** At least 32 characters; empty only outside production. Never echoes the value. */
const IsCursorKey = () =>
  ProductionRule(
    'isCursorKey',
    `must be at least ${MIN_CURSOR_KEY_LENGTH} characters (required when NODE_ENV=production)`,
    (value, production) => (value === '' || value === undefined ? !production : typeof value === 'string' && value.length >= MIN_CURSOR_KEY_LENGTH),
  );

/** The largest object one presigned PUT may carry (S3's limit for a single upload). */
const MAX_SINGLE_PUT_BYTES = 5 * 1024 ** 3;
const unlessEmpty = ValidateIf((_: object, value: unknown) => value !== '');

export class TablesConfig extends ServiceConfig {
  override HEALTH_PORT = 7101;

  /** Signs row-list cursors (HMAC-SHA-256), so a client cannot forge or alter one. Required in production. */
  @IsCursorKey()
  ROW_CURSOR_KEY = '';

  get rowCursorKey(): Buffer {
    return this.ROW_CURSOR_KEY ? Buffer.from(this.ROW_CURSOR_KEY, 'utf8') : DEVELOPMENT_CURSOR_KEY;
  }

  /** S3-compatible endpoint the service talks to (MinIO, R2, ...); empty means AWS S3 in S3_REGION. */
  @unlessEmpty
  @IsUrlWithScheme(['http', 'https'])
  S3_ENDPOINT = '';

  /** Where clients reach the same storage, when that differs from S3_ENDPOINT (compose, a private network): presigned URLs name it. */
  @unlessEmpty
  @IsUrlWithScheme(['http', 'https'])
  S3_PUBLIC_ENDPOINT = '';

  @Matches(/^[a-z0-9-]{2,32}$/, { message: 'must be a region name such as eu-west-1' })
  S3_REGION = 'us-east-1';

  /** S3 bucket naming rules: 3..63 lowercase letters, digits, dots and hyphens. */
  @Matches(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, { message: 'must be a bucket name (3..63 lowercase letters, digits, . and -)' })
  S3_BUCKET = 'attachments';

  @IsString()
  @MinLength(1)
  @MaxLength(128)
  S3_ACCESS_KEY_ID: string = DEVELOPMENT_STORAGE_CREDENTIALS.accessKeyId;

  @IsStorageSecret()
  S3_SECRET_ACCESS_KEY: string = DEVELOPMENT_STORAGE_CREDENTIALS.secretAccessKey;

  /** `bucket` in the path instead of the host name, as MinIO and most S3-compatible servers want. */
  @IsBoolean()
  S3_FORCE_PATH_STYLE = false;

  @IsIntBetween(1, MAX_SINGLE_PUT_BYTES)
  ATTACHMENT_MAX_BYTES = 104_857_600;

  /** Upload tickets one organization may take a minute (each is a presigned URL and a row until it is swept). */
  @IsIntBetween(1, 100_000)
  UPLOAD_TICKETS_PER_MINUTE = 120;

  /** The largest file an upload with purpose "import" may declare. */
  @IsIntBetween(1, MAX_SINGLE_PUT_BYTES)
  IMPORT_MAX_BYTES = 1_073_741_824;

  /** How long an export's file stays in storage after it is written (24 h); tests shorten it. */
  @IsIntBetween(1, 30 * 24 * 60 * 60)
  EXPORT_FILE_TTL_SECONDS = 86_400;
}
