import { PROCESSES } from '@platform/runner';
import { byKind, containersOf, envValue, find, matches, podTemplate } from './k8s-inspect';
import { Manifest, renderKustomization } from './kustomize-render';
import { DEFAULT_SHUTDOWN_TIMEOUT_MS } from './repo-paths';

/** The overlays that run NATS as the nats-jetstream component's StatefulSet. */
const CLUSTERED: [string, string][] = [
  ['dev', 'deploy/k8s/overlays/dev'],
  ['prod', 'deploy/k8s/overlays/prod'],
];

/**
 * What tests/cluster proved on three hosts, as an operator deploys it: every process names every NATS
 * node, the EVENTS stream has a copy on each, a disruption never takes more than one node or one replica
 * of an app at once, and a service's grace for its requests in flight fits in its shutdown timeout.
 */
describe.each(CLUSTERED)('kustomize %s (%s): the NATS cluster as the apps use it', (_overlay, dir) => {
  let manifests: Manifest[];
  beforeAll(() => {
    manifests = renderKustomization(dir);
  });
  const nats = () => {
    const statefulSet = find(manifests, 'StatefulSet', 'nats');
    if (!statefulSet) throw new Error(`${dir} renders no StatefulSet "nats"`);
    return statefulSet;
  };
  const appContainer = (name: string) => containersOf(find(manifests, 'Deployment', name) as Manifest).find((container) => container.name === name)!;

  it('gives every process the address of every NATS node, through the headless Service\'s client port', () => {
    const { replicas, serviceName } = nats().spec;
    const headless = find(manifests, 'Service', serviceName);
    expect(headless?.spec.ports.some((port: { port: number }) => port.port === 4222)).toBe(true);
    const expected = Array.from({ length: replicas }, (_, i) => `nats://nats-${i}.${serviceName}:4222`);
    for (const spec of PROCESSES) {
      expect({ app: spec.name, servers: envValue(manifests, appContainer(spec.name), 'NATS_URL')?.split(',') }).toEqual({ app: spec.name, servers: expected });
    }
  });

  it('keeps the EVENTS stream on every node of an odd-sized cluster, and lets a disruption take one node at a time', () => {
    const { replicas } = nats().spec;
    expect(replicas % 2).toBe(1);
    expect(replicas).toBeGreaterThanOrEqual(3);
    for (const spec of PROCESSES) expect(Number(envValue(manifests, appContainer(spec.name), 'JETSTREAM_REPLICAS'))).toBe(replicas);
    const labels = podTemplate(nats()).metadata.labels;
    const budgets = byKind(manifests, 'PodDisruptionBudget').filter((pdb) => matches(pdb.spec.selector.matchLabels, labels));
    expect(budgets.map((pdb) => pdb.spec.maxUnavailable)).toEqual([1]);
  });

  it('lets a disruption take one replica of each app at a time', () => {
    for (const spec of PROCESSES) {
      const labels = podTemplate(find(manifests, 'Deployment', spec.name) as Manifest).metadata.labels;
      const budgets = byKind(manifests, 'PodDisruptionBudget').filter((pdb) => matches(pdb.spec.selector.matchLabels, labels));
      expect({ app: spec.name, maxUnavailable: budgets.map((pdb) => pdb.spec.maxUnavailable) }).toEqual({ app: spec.name, maxUnavailable: [1] });
    }
  });

  it('gives requests in flight their grace on SIGTERM inside the shutdown timeout', () => {
    for (const spec of PROCESSES) {
      const container = appContainer(spec.name);
      const grace = Number(envValue(manifests, container, 'RPC_SHUTDOWN_GRACE_MS'));
      const shutdown = Number(envValue(manifests, container, 'SHUTDOWN_TIMEOUT_MS') ?? DEFAULT_SHUTDOWN_TIMEOUT_MS);
      expect(grace).toBeGreaterThan(0);
      expect(grace).toBeLessThan(shutdown);
    }
  });
});
