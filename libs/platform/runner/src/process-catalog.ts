/** Every long-running process of the system, by name, with its compiled entry file and default health port. */
export const PROCESS_NAMES = ['gateway', 'tables', 'tables-relay', 'tables-jobs', 'webhooks', 'webhooks-worker', 'domains', 'domains-relay', 'calendar'] as const;
export type ProcessName = (typeof PROCESS_NAMES)[number];

export interface ProcessSpec {
  name: ProcessName;
  /** Relative to the repository root. */
  entry: string;
  healthPort: number;
}

export const PROCESSES: readonly ProcessSpec[] = [
  { name: 'gateway', entry: 'dist/apps/gateway/src/main.js', healthPort: 7100 },
  { name: 'tables', entry: 'dist/apps/tables/src/main.js', healthPort: 7101 },
  { name: 'tables-relay', entry: 'dist/apps/tables/src/relay.main.js', healthPort: 7102 },
  { name: 'tables-jobs', entry: 'dist/apps/tables/src/jobs.main.js', healthPort: 7108 },
  { name: 'webhooks', entry: 'dist/apps/webhook-dispatcher/src/main.js', healthPort: 7103 },
  { name: 'webhooks-worker', entry: 'dist/apps/webhook-dispatcher/src/worker.main.js', healthPort: 7104 },
  { name: 'domains', entry: 'dist/apps/domains/src/main.js', healthPort: 7105 },
  { name: 'domains-relay', entry: 'dist/apps/domains/src/relay.main.js', healthPort: 7107 },
  { name: 'calendar', entry: 'dist/apps/calendar/src/main.js', healthPort: 7106 },
];

/** One migration entry per context that owns a schema; they touch disjoint schemas and may run together. */
export const MIGRATION_ENTRIES: readonly string[] = [
  'dist/apps/gateway/src/migrate.js',
  'dist/apps/tables/src/migrate.js',
  'dist/apps/webhook-dispatcher/src/migrate.js',
  'dist/apps/domains/src/migrate.js',
  'dist/apps/calendar/src/migrate.js',
];

export const ADMIN_ENTRY = 'dist/apps/admin/src/main.js';

export function processSpec(name: ProcessName): ProcessSpec {
  const spec = PROCESSES.find((candidate) => candidate.name === name);
  if (!spec) throw new Error(`Unknown process ${name}`);
  return spec;
}
