import { AppError } from '@platform/errors';
import { InvalidValue, parseDate, parseDateTime } from '@platform/row-filter';
import { isUuid, MAX_FILENAME_LENGTH, MIME_TYPE_PATTERN } from '@contracts';
import { isEmail } from 'class-validator';
import { parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';
import { AttachmentDraft, DraftEntry, FileLink } from '../attachments/attachment-entries';
import type { Field } from '../fields/field';
import { roundHalfAwayFromZero } from './decimal-round';
import { checkRowValuesSize } from './row-size';

function fail(reason: string, at?: string): never {
  throw new InvalidValue(reason, at);
}

export const MAX_TEXT_LENGTH = 10_000;
export const MAX_LONG_TEXT_LENGTH = 100_000;
export const MAX_URL_LENGTH = 2_048;
export const MAX_ATTACHMENTS = 20;

export function parseHttpUrl(value: unknown): string {
  if (typeof value !== 'string' || value.length > MAX_URL_LENGTH) fail(`must be an absolute http(s) URL of at most ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    fail('must be an absolute http(s) URL');
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !url.hostname || /\s/.test(value)) fail('must be an absolute http(s) URL');
  return value;
}

function finiteNumber(value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) fail('must be a finite number');
  return value;
}

/** Characters as the contract (and JSON Schema's `maxLength`) counts them: code points, so an emoji is one. */
function characterCount(value: string): number {
  let pairs = 0;
  for (let i = 0; i < value.length; i += 1) {
    const unit = value.charCodeAt(i);
    if (unit >= 0xd800 && unit <= 0xdbff) pairs += 1;
  }
  return value.length - pairs;
}

function text(value: unknown, max: number): string {
  if (typeof value !== 'string') fail('must be a string');
  // UTF-16 units are never fewer than characters: only a long value needs counting.
  if (value.length > max && characterCount(value) > max) fail(`must be at most ${max} characters`);
  return value;
}

function fileLink(item: Record<string, unknown>, index: number): FileLink {
  const at = `item ${index}`;
  for (const key of Object.keys(item)) {
    if (!['url', 'filename', 'size', 'mime_type'].includes(key)) fail(`${at} has an unknown property ${key}`);
  }
  let url: string;
  try {
    url = parseHttpUrl(item.url);
  } catch {
    fail(`${at}.url must be an absolute http(s) URL`);
  }
  const { filename, size, mime_type } = item;
  if (typeof filename !== 'string' || filename.length === 0 || filename.length > MAX_FILENAME_LENGTH) {
    fail(`${at}.filename must be a non-empty string of at most ${MAX_FILENAME_LENGTH} characters`);
  }
  const clean: FileLink = { url, filename };
  if (size !== undefined && size !== null) {
    if (typeof size !== 'number' || !Number.isSafeInteger(size) || size < 0) fail(`${at}.size must be a non-negative integer`);
    clean.size = size;
  }
  if (mime_type !== undefined && mime_type !== null) {
    if (typeof mime_type !== 'string' || !MIME_TYPE_PATTERN.test(mime_type)) fail(`${at}.mime_type must be a media type such as image/png`);
    clean.mime_type = mime_type;
  }
  return clean;
}

/** `{upload_id}` alone: an upload of this table to attach. */
function uploadEntry(item: Record<string, unknown>, at: string): DraftEntry {
  if (Object.keys(item).length !== 1) fail('an upload entry is {upload_id} alone', at);
  if (!isUuid(item.upload_id)) fail('upload_id must be the id an upload answered', at);
  return { kind: 'upload', uploadId: item.upload_id.toLowerCase() };
}

/** A stored file as a read answered it (`url` is ignored: it changes on every read). */
function keptEntry(item: Record<string, unknown>, at: string): DraftEntry {
  for (const key of Object.keys(item)) {
    if (!['id', 'filename', 'size', 'mime_type', 'url'].includes(key)) fail(`has an unknown property ${key}`, at);
  }
  if (!isUuid(item.id)) fail('id must be the id of a file this value holds', at);
  const { filename, size, mime_type } = item;
  if (filename !== undefined && typeof filename !== 'string') fail('filename must be a string', at);
  if (size !== undefined && typeof size !== 'number') fail('size must be a number', at);
  if (mime_type !== undefined && typeof mime_type !== 'string') fail('mime_type must be a string', at);
  return { kind: 'kept', id: item.id.toLowerCase(), filename, size, mime_type };
}

function attachmentEntry(value: unknown, index: number): DraftEntry {
  const at = `[${index}]`;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    fail(`item ${index} must be an object: {upload_id}, a stored file {id, ...} or a link {url, filename, size?, mime_type?}`);
  }
  const item = value as Record<string, unknown>;
  if ('upload_id' in item) return uploadEntry(item, at);
  if ('id' in item) return keptEntry(item, at);
  return { kind: 'link', link: fileLink(item, index) };
}

/** Checks one non-null value against its field and answers the normalized form that is stored and returned. */
export function normalizeValue(field: Field, value: unknown): unknown {
  const { options } = field;
  switch (field.fieldType) {
    case 'text':
      return text(value, MAX_TEXT_LENGTH);
    case 'long_text':
      return text(value, MAX_LONG_TEXT_LENGTH);
    case 'number': {
      const number = finiteNumber(value);
      return options.precision === undefined ? number : roundHalfAwayFromZero(number, options.precision);
    }
    case 'currency':
      return roundHalfAwayFromZero(finiteNumber(value), options.precision ?? 2);
    case 'date':
      return parseDate(value);
    case 'datetime':
      return parseDateTime(value);
    case 'checkbox':
      if (typeof value !== 'boolean') fail('must be true or false');
      return value;
    case 'select':
      if (typeof value !== 'string' || !options.values?.includes(value)) fail(`must be one of the field's values`);
      return value;
    case 'multi_select': {
      if (!Array.isArray(value)) fail(`must be an array of the field's values`);
      const seen = new Set<string>();
      for (const item of value) {
        if (typeof item !== 'string' || !options.values?.includes(item)) fail(`must hold only the field's values`);
        if (seen.has(item)) fail(`must not repeat a value (${item})`);
        seen.add(item);
      }
      return value;
    }
    case 'email':
      if (typeof value !== 'string' || value.length > 254 || !isEmail(value)) fail('must be a valid email address');
      // Stored in lower case, so a unique email and an upsert on it see Ada@Example.com and ada@example.com as one.
      return value.toLowerCase();
    case 'url':
      return parseHttpUrl(value);
    case 'phone': {
      if (typeof value !== 'string' || value.length > 64) fail('must be a phone number');
      const phone = parsePhoneNumberFromString(value, options.default_country as CountryCode | undefined);
      if (!phone || !phone.isValid()) fail('must be a valid phone number (international form, or national with the field\'s default_country)');
      return phone.number;
    }
    case 'attachment':
      if (!Array.isArray(value)) fail('must be an array of {upload_id}, stored files {id, ...} and links {url, filename, size?, mime_type?}');
      if (value.length > MAX_ATTACHMENTS) fail(`must hold at most ${MAX_ATTACHMENTS} entries`);
      return new AttachmentDraft(value.map(attachmentEntry));
  }
}

/** Empty for the purpose of `is_required`: null, '', or an empty array. */
export function isEmptyValue(value: unknown): boolean {
  return value === null || value === undefined || value === '' || (Array.isArray(value) && value.length === 0);
}

export type RowWriteMode = 'create' | 'update';

/**
 * Validates a row's `data` against the table's fields. On create, every required field must be present
 * and non-empty, and the row must fit ROW_DATA_MAX_BYTES; on update, only the given keys are checked
 * (the size of the row they make is RowsService.change's to check) and a required one cannot be cleared.
 * Answers the normalized values keyed by slug (null clears).
 */
export function validateRowData(fields: readonly Field[], data: Record<string, unknown>, mode: RowWriteMode): Map<Field, unknown> {
  const bySlug = fieldsBySlug(fields);
  const values = new Map<Field, unknown>();
  for (const [slug, value] of Object.entries(data)) {
    const field = bySlug.get(slug);
    if (!field) throw AppError.validation(`data.${slug}`, 'is not a field of this table');
    if (isEmptyValue(value)) {
      if (field.isRequired) throw AppError.validation(`data.${slug}`, 'is required');
      values.set(field, value === null || value === undefined ? null : normalizeOrFail(field, value));
      continue;
    }
    values.set(field, normalizeOrFail(field, value));
  }
  if (mode === 'create') {
    for (const field of fields) {
      if (field.isRequired && !values.has(field)) throw AppError.validation(`data.${field.slug}`, 'is required');
    }
    checkRowValuesSize(fields, values);
  }
  return values;
}

/** A table's fields by slug, made once per fields list (a batch validates up to 100 rows against one). */
const slugIndexes = new WeakMap<readonly Field[], ReadonlyMap<string, Field>>();
function fieldsBySlug(fields: readonly Field[]): ReadonlyMap<string, Field> {
  let index = slugIndexes.get(fields);
  if (!index) slugIndexes.set(fields, (index = new Map(fields.map((field) => [field.slug, field]))));
  return index;
}

function normalizeOrFail(field: Field, value: unknown): unknown {
  try {
    return normalizeValue(field, value);
  } catch (error) {
    if (error instanceof InvalidValue) throw AppError.validation(`data.${field.slug}${error.at}`, error.message);
    throw error;
  }
}
