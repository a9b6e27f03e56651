/** A file held in object storage, as stored in the row; answers add a fresh download `url`. */
export interface StoredFile {
  id: string;
  filename: string;
  size: number;
  mime_type: string;
}

/** A link to a file somewhere else, stored and answered as the client gave it. */
export interface FileLink {
  url: string;
  filename: string;
  size?: number;
  mime_type?: string;
}

export type StoredEntry = StoredFile | FileLink;

/** What a client may write in an attachment value, before its files are checked. */
export type DraftEntry =
  | { kind: 'link'; link: FileLink }
  /** `{upload_id}`: a finished upload to attach. */
  | { kind: 'upload'; uploadId: string }
  /** `{id, ...}` as a read answered it: a file the value already holds, kept. */
  | { kind: 'kept'; id: string; filename?: string; size?: number; mime_type?: string };

/**
 * An attachment value that passed its shape checks but whose files are not resolved yet: it must go
 * through AttachmentFiles before it is stored (storing one is a bug, and `columnParameter` refuses it).
 */
export class AttachmentDraft {
  constructor(readonly entries: readonly DraftEntry[]) {}

  get namesFiles(): boolean {
    return this.entries.some((entry) => entry.kind !== 'link');
  }
}

export function isStoredFile(entry: unknown): entry is StoredFile {
  return typeof entry === 'object' && entry !== null && 'id' in entry && !('url' in entry);
}

/** The stored files of a value read back from a row (links and empty values hold none). */
export function filesOf(value: unknown): StoredFile[] {
  return Array.isArray(value) ? value.filter(isStoredFile) : [];
}
