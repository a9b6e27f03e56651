import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { appManifests, MIGRATION_ENTRIES, PROCESSES, REPO_ROOT } from './app-manifests';

const manifests = appManifests();
const source = (app: string, file: string) => join(REPO_ROOT, 'apps', app, file);

describe('the apps\' manifests', () => {
  it('name every entry file an app has, and only files that exist', () => {
    for (const manifest of manifests) {
      const declared = [...manifest.processes.map((process) => process.main), manifest.migrate, manifest.command].filter((file): file is string => !!file).sort();
      for (const file of declared) expect({ file, exists: existsSync(source(manifest.app, file)) }).toEqual({ file, exists: true });
      const entries = readdirSync(source(manifest.app, 'src')).filter((file) => /(^|\.)main\.ts$|^migrate\.ts$/.test(file)).map((file) => `src/${file}`);
      expect({ app: manifest.app, declared }).toEqual({ app: manifest.app, declared: entries.sort() });
    }
  });

  it('give each schema one owner, the app of the same name, which migrates it', () => {
    const owners = manifests.filter((manifest) => manifest.schema);
    expect(new Set(owners.map((manifest) => manifest.schema)).size).toBe(owners.length);
    for (const manifest of owners) expect({ app: manifest.app, schema: manifest.schema, migrate: !!manifest.migrate }).toEqual({ app: manifest.app, schema: manifest.app, migrate: true });
    expect(MIGRATION_ENTRIES).toHaveLength(owners.length);
  });

  it('name each process after its app, on a health port of its own', () => {
    for (const { app, processes } of manifests) {
      for (const { name } of processes) expect({ app, name }).toEqual({ app, name: expect.stringMatching(new RegExp(`^${app}(-[a-z]+)?$`)) });
    }
    expect(new Set(PROCESSES.map((spec) => spec.name)).size).toBe(PROCESSES.length);
    expect(new Set(PROCESSES.map((spec) => spec.healthPort)).size).toBe(PROCESSES.length);
  });
});
