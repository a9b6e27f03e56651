/**
 * The migration job (the image's `migrate` target, the Kubernetes Job, compose's `migrate` service):
 * brings the schema of every app whose manifest names one up to date, then exits.
 */
import { REPO_ROOT, runMigrations } from '@platform/runner';

runMigrations(REPO_ROOT, process.env).then(
  (outputs) => process.stdout.write(`${outputs.join('\n')}\n`),
  (error: Error) => {
    process.stderr.write(`${error.message}\n`);
    process.exit(1);
  },
);
