import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

export const REPO = resolve(__dirname, '../..');

/** A fenced code block of a document, with where it stands. */
export interface DocBlock {
  file: string;
  line: number;
  lang: string;
  code: string;
}

/** Every document a reader is sent to: the README, docs/, and the README of each app and library. */
export function documents(): string[] {
  const inFolder = (folder: string) =>
    readdirSync(join(REPO, folder), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => join(folder, entry.name, 'README.md'))
      .filter((file) => {
        try {
          readFileSync(join(REPO, file));
          return true;
        } catch {
          return false;
        }
      });
  const docs = readdirSync(join(REPO, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => join('docs', name));
  return ['README.md', ...docs, ...inFolder('apps'), ...inFolder('libs')].map((file) => relative(REPO, join(REPO, file)));
}

/** The fenced blocks of a Markdown file, indented ones (inside list items) included. */
export function blocksOf(file: string): DocBlock[] {
  const lines = readFileSync(join(REPO, file), 'utf8').split('\n');
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i += 1) {
    const open = /^(\s*)```(\w*)\s*$/.exec(lines[i]);
    if (!open) continue;
    const [, indent, lang] = open;
    const body: string[] = [];
    let j = i + 1;
    while (j < lines.length && !/^\s*```\s*$/.test(lines[j])) body.push(lines[j++].slice(indent.length));
    blocks.push({ file, line: i + 1, lang, code: body.join('\n') });
    i = j;
  }
  return blocks;
}

/**
 * Documents for the developers of this repository, whose blocks are files of the repository (a contract
 * beside its handler) and compile with its own paths, by a spec of their own beside this one.
 */
export const REPOSITORY_DOCUMENTS: readonly string[] = ['docs/declared-operations.md'];

export function allBlocks(langs: readonly string[]): DocBlock[] {
  return documents()
    .filter((file) => !REPOSITORY_DOCUMENTS.includes(file))
    .flatMap(blocksOf)
    .filter((block) => langs.includes(block.lang));
}
