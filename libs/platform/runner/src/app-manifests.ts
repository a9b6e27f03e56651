import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * Each app says in `apps/<app>/manifest.json` what it runs and what it owns: its long-running processes
 * (with their default health ports), the database schema it alone migrates, whether that schema has an
 * outbox, and its command line if it is one. The process runner, `npm start`, the migration job, the admin
 * command and the deploy files' tests read these, so a process or a schema is declared in one place.
 */
export interface AppManifest {
  /** The folder under apps/, which names the app, its schema and the prefix of its processes. */
  app: string;
  schema?: string;
  /** The schema has an outbox its relay publishes from (the admin command lists and retries its parked events). */
  outbox?: boolean;
  /** Source file of the one-shot job that brings the schema up to date. */
  migrate?: string;
  /** Source file of the app's command line. */
  command?: string;
  processes: { name: string; main: string; healthPort: number }[];
}

export interface ProcessSpec {
  name: string;
  /** The compiled entry file, relative to the repository root. */
  entry: string;
  healthPort: number;
}

/** The repository root (or the image's /app): this file runs from libs/... or from dist/libs/.... */
export const REPO_ROOT = resolve(__dirname, '../../../..').replace(/\/dist$/, '');

/** Where the build writes a source file of an app: dist/ mirrors the repository's layout. */
export function compiledEntry(app: string, source: string): string {
  return join('dist/apps', app, source).replace(/\.ts$/, '.js');
}

export function appManifests(root = REPO_ROOT): AppManifest[] {
  const apps = resolve(root, 'apps');
  return readdirSync(apps)
    .filter((app) => existsSync(join(apps, app, 'manifest.json')))
    .sort()
    .map((app) => ({ ...JSON.parse(readFileSync(join(apps, app, 'manifest.json'), 'utf8')), app }));
}

const MANIFESTS = appManifests();

/** Every long-running process of the system, ordered by health port. */
export const PROCESSES: readonly ProcessSpec[] = MANIFESTS.flatMap((manifest) =>
  manifest.processes.map((process) => ({ name: process.name, entry: compiledEntry(manifest.app, process.main), healthPort: process.healthPort })),
).sort((a, b) => a.healthPort - b.healthPort);

export type ProcessName = string;

/** One migration job per app that owns a schema; they touch disjoint schemas and may run together. */
export const MIGRATION_ENTRIES: readonly string[] = MANIFESTS.filter((manifest) => manifest.migrate).map((manifest) => compiledEntry(manifest.app, manifest.migrate!));

/** The migration job of deployments (scripts/migrate.ts): every entry above, one command. */
export const MIGRATION_JOB = 'dist/scripts/migrate.js';

/** The schemas whose relay publishes from an outbox. */
export const OUTBOX_SCHEMAS: readonly string[] = MANIFESTS.filter((manifest) => manifest.outbox).map((manifest) => manifest.schema!);

export const ADMIN_ENTRY = compiledEntry('admin', MANIFESTS.find((manifest) => manifest.command)!.command!);

export function processSpec(name: ProcessName): ProcessSpec {
  const spec = PROCESSES.find((candidate) => candidate.name === name);
  if (!spec) throw new Error(`Unknown process ${name}`);
  return spec;
}
