import { Injectable } from '@nestjs/common';
import { isUuid } from '@contracts';
import { AppError } from '@platform/errors';
import type { Field } from '../fields/field';
import { MAX_ATTACHMENTS } from '../rows/field-values';
import type { Sql } from '@platform/persistence';
import type { UserTable } from '../tables/user-table';
import { AttachmentDraft, filesOf, isStoredFile, StoredEntry, StoredFile } from './attachment-entries';
import { fileKey } from './object-keys';
import { ObjectDeletionsRepository } from './object-deletions.repository';
import { ObjectStorage, StorageUnavailable } from './object-storage';
import { UploadRecord, UploadsRepository } from './uploads.repository';

/** What the first phase found out about each upload a write names, by upload id. */
export type CheckedUploads = ReadonlyMap<string, { upload: UploadRecord } | { refusal: string }>;

type TableRef = Pick<UserTable, 'id' | 'organizationId'>;

/** Storage answers for several uploads at once, but one write never floods it. */
const HEAD_CONCURRENCY = 8;

/** Every `{upload_id}` in the rows' arrays: the candidates phase one looks up. Bounded like the values themselves. */
function uploadIdsIn(rows: ReadonlyArray<Record<string, unknown>>): string[] {
  const ids = new Set<string>();
  for (const data of rows) {
    for (const value of Object.values(data)) {
      if (!Array.isArray(value) || value.length > MAX_ATTACHMENTS) continue;
      for (const entry of value) {
        if (typeof entry !== 'object' || entry === null) continue;
        const id = (entry as { upload_id?: unknown }).upload_id;
        if (isUuid(id)) ids.add(id.toLowerCase());
      }
    }
  }
  return [...ids];
}

async function inParallel<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** Whether any field of the table holds files: a table without one has nothing to settle or present. */
function holdsFiles(table: UserTable): boolean {
  return table.fields.some((field) => field.fieldType === 'attachment');
}

function storedFile(upload: UploadRecord): StoredFile {
  return { id: upload.id, filename: upload.filename, size: upload.size, mime_type: upload.mimeType };
}

/**
 * Files in attachment values. A write goes in two phases: `checkUploads` asks storage about the named
 * uploads before any transaction (no connection is held while storage answers), then `settle`, inside the
 * write's transaction, resolves the values, claims the uploads and queues the files the change drops.
 */
@Injectable()
export class AttachmentFiles {
  constructor(
    private readonly storage: ObjectStorage,
    private readonly uploads: UploadsRepository,
    private readonly deletions: ObjectDeletionsRepository,
  ) {}

  /** Phase one: each named upload must be this table's, not attached yet, and in storage with its declared size. */
  async checkUploads(table: TableRef, rows: ReadonlyArray<Record<string, unknown>>): Promise<CheckedUploads> {
    const ids = uploadIdsIn(rows);
    const checked = new Map<string, { upload: UploadRecord } | { refusal: string }>();
    if (ids.length === 0) return checked;
    const found = new Map((await this.uploads.findOfTable(table.organizationId, table.id, ids)).map((upload) => [upload.id, upload]));
    for (const id of ids) {
      const upload = found.get(id);
      if (!upload) checked.set(id, { refusal: 'is not an upload of this table' });
      else if (upload.attached) checked.set(id, { refusal: 'has already been attached' });
    }
    const waiting = [...found.values()].filter((upload) => !upload.attached);
    try {
      await inParallel(waiting, HEAD_CONCURRENCY, async (upload) => {
        const size = await this.storage.sizeOf(fileKey(upload.organizationId, upload.tableId, upload.id));
        if (size === undefined) checked.set(upload.id, { refusal: 'has not been uploaded yet: PUT the file to its upload_url first' });
        else if (size !== upload.size) checked.set(upload.id, { refusal: `holds ${size} bytes, not the ${upload.size} declared` });
        else checked.set(upload.id, { upload });
      });
    } catch (error) {
      if (error instanceof StorageUnavailable) throw AppError.internal('File storage did not answer; try again');
      throw error;
    }
    return checked;
  }

  /**
   * Phase two, in the write's transaction: replaces each attachment draft in `values` by the entries to
   * store, claims the uploads (a concurrent write that claimed one first wins), and queues the files the
   * row held in the written fields but holds no longer. `current` is the row's data before the write.
   */
  async settle(db: Sql, table: UserTable, values: Map<Field, unknown>, checked: CheckedUploads, current?: Record<string, unknown>, path = 'data'): Promise<void> {
    const claims: Array<{ id: string; at: string }> = [];
    const dropped: string[] = [];
    const named = new Set<string>();
    for (const [field, value] of values) {
      if (field.fieldType !== 'attachment') continue;
      const before = filesOf(current?.[field.slug]);
      const entries: StoredEntry[] = [];
      (value instanceof AttachmentDraft ? value.entries : []).forEach((entry, i) => {
        const at = `${path}.${field.slug}[${i}]`;
        if (entry.kind === 'link') {
          entries.push(entry.link);
          return;
        }
        const id = entry.kind === 'upload' ? entry.uploadId : entry.id;
        if (named.has(id)) throw AppError.validation(at, 'names a file another entry of this write already names');
        named.add(id);
        if (entry.kind === 'upload') {
          const verdict = checked.get(id);
          if (!verdict) throw new Error(`upload ${id} reached settle without being checked`);
          if ('refusal' in verdict) throw AppError.validation(at, verdict.refusal);
          entries.push(storedFile(verdict.upload));
          claims.push({ id, at });
          return;
        }
        const file = before.find((candidate) => candidate.id === id);
        if (!file) throw AppError.validation(at, 'is not a file this value holds; attach a new file with {upload_id}');
        const changed = (['filename', 'size', 'mime_type'] as const).find((key) => entry[key] !== undefined && entry[key] !== file[key]);
        if (changed) throw AppError.validation(at, `${changed} of a stored file cannot change; upload the file again instead`);
        entries.push(file);
      });
      if (value !== null) values.set(field, entries);
      const kept = new Set(entries.filter(isStoredFile).map((file) => file.id));
      dropped.push(...before.filter((file) => !kept.has(file.id)).map((file) => file.id));
    }
    const claimed = await this.uploads.claim(db, claims.map((claim) => claim.id));
    const lost = claims.find((claim) => !claimed.has(claim.id));
    if (lost) throw AppError.validation(lost.at, 'has already been attached');
    await this.deletions.enqueueFiles(db, table, dropped);
  }

  /** `settle` for each of a batch's new rows, one after another (their uploads are claimed in order); nothing to do on a table without files. */
  async settleRows(db: Sql, table: UserTable, rows: ReadonlyArray<Map<Field, unknown>>, checked: CheckedUploads, pathOf: (i: number) => string): Promise<void> {
    if (!holdsFiles(table)) return;
    for (const [i, values] of rows.entries()) await this.settle(db, table, values, checked, undefined, pathOf(i));
  }

  /** Queues every file the row held (it is being deleted). */
  async dropRow(db: Sql, table: UserTable, data: Record<string, unknown>): Promise<void> {
    const files = table.fields.filter((field) => field.fieldType === 'attachment').flatMap((field) => filesOf(data[field.slug]));
    await this.deletions.enqueueFiles(db, table, files.map((file) => file.id));
  }

  /**
   * Row data as answers and events show it: each stored file gains a download URL made now. Sets new
   * arrays on `data` (the stored values stay as they are) and answers it.
   */
  async present(table: UserTable, data: Record<string, unknown>): Promise<Record<string, unknown>> {
    const work: Promise<void>[] = [];
    for (const field of table.fields) {
      const value = data[field.slug];
      if (field.fieldType !== 'attachment' || !Array.isArray(value) || !value.some(isStoredFile)) continue;
      const shown = value.map(async (entry: unknown) => {
        if (!isStoredFile(entry)) return entry;
        const url = await this.storage.presignDownload(fileKey(table.organizationId, table.id, entry.id), entry.filename, entry.mime_type);
        return { id: entry.id, filename: entry.filename, size: entry.size, mime_type: entry.mime_type, url };
      });
      work.push(Promise.all(shown).then((entries) => void (data[field.slug] = entries)));
    }
    await Promise.all(work);
    return data;
  }

  /** `present` for each row's data of a batch; nothing to do on a table without files. */
  async presentRows(table: UserTable, rows: ReadonlyArray<Record<string, unknown>>): Promise<void> {
    if (holdsFiles(table)) await Promise.all(rows.map((data) => this.present(table, data)));
  }
}
