import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { containersOf, envValue, find } from './k8s-inspect';
import { Manifest, renderKustomization } from './kustomize-render';
import { repoPath } from './repo-paths';

/** The background re-check's settings: documented, and set with the documented defaults wherever the domains service runs. */
const SETTINGS = ['DOMAIN_VERIFICATION_WINDOW', 'DOMAIN_RECHECK_SCHEDULE', 'DOMAIN_RECHECK_INTERVAL', 'DOMAIN_RECHECK_CONCURRENCY'];

function readmeDefault(name: string): string | undefined {
  const row = readFileSync(repoPath('README.md'), 'utf8')
    .split('\n')
    .find((line) => line.startsWith(`| \`${name}\` |`));
  return row?.split('|')[2].trim().replace(/^`|`$/g, '');
}

describe('the domains re-check settings', () => {
  const compose = parse(readFileSync(repoPath('docker-compose.yml'), 'utf8'), { merge: true }) as {
    services: Record<string, { environment?: Record<string, string> }>;
  };

  let renderings: Manifest[][];
  beforeAll(() => {
    renderings = ['deploy/k8s/base', 'deploy/k8s/overlays/dev', 'deploy/k8s/overlays/prod'].map((dir) => renderKustomization(dir));
  });

  it.each(SETTINGS)('%s is in the README table, compose and every Kubernetes rendering, with one default', (name) => {
    const documented = readmeDefault(name);
    expect(documented).toMatch(/\S/);
    expect(compose.services.domains.environment?.[name]).toBe(`\${${name}:-${documented}}`);
    for (const manifests of renderings) {
      const domains = find(manifests, 'Deployment', 'domains');
      const container = containersOf(domains!).find((candidate) => candidate.name === 'domains')!;
      expect(envValue(manifests, container, name)).toBe(documented);
    }
  });
});
