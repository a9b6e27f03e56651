import { MIGRATION_JOB, NODE_FLAGS, PROCESSES } from '@platform/runner';
import { byKind, Container, containersOf, envValue, find, matches, podTemplate, preStopMs, resolvePort } from './k8s-inspect';
import { kubernetesSchemaErrors } from './kubernetes-schema';
import { Manifest, renderKustomization } from './kustomize-render';
import { assertBuilt, DEFAULT_SHUTDOWN_TIMEOUT_MS, GRACE_MARGIN_MS, HTTP_PORTS } from './repo-paths';

const RENDERINGS: [string, string][] = [
  ['base', 'deploy/k8s/base'],
  ['dev', 'deploy/k8s/overlays/dev'],
  ['prod', 'deploy/k8s/overlays/prod'],
];
/** Provided outside the repository in base and prod (see docs/operations.md); generated in dev. */
const EXTERNAL_SECRET = 'platform-secrets';
/** The tables app's storage settings, external like the above. */
const STORAGE_SECRET = 'object-storage';
const HTTPS_PORTS = [443];
const AUTOSCALED = ['gateway', 'webhooks-worker'];
const DNS_PORTS = [53];
const DATASTORE_PORTS = [4222, 5432, 6379];

type Rule = { ports?: { port?: number | string }[]; from?: Peer[]; to?: Peer[] };
type Peer = { ipBlock?: unknown; namespaceSelector?: { matchLabels?: Record<string, string> }; podSelector?: { matchLabels?: Record<string, string> } };

const ruleUsesOnly = (rule: Rule, allowed: (number | string)[]) =>
  (rule.ports ?? []).length > 0 && (rule.ports ?? []).every((port) => port.port !== undefined && allowed.includes(port.port));
const isClusterDns = (peer: Peer) =>
  peer.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] === 'kube-system' && peer.podSelector?.matchLabels?.['k8s-app'] === 'kube-dns';
/** A peer list that lets in or out more than the pods of this namespace. */
const reachesOutside = (peers: Peer[] | undefined) =>
  !peers || peers.length === 0 || peers.some((peer) => peer.ipBlock !== undefined || (peer.namespaceSelector !== undefined && !isClusterDns(peer)));

describe.each(RENDERINGS)('kustomize %s (%s)', (overlay, dir) => {
  let manifests: Manifest[];
  beforeAll(() => {
    manifests = renderKustomization(dir);
  });
  const deployment = (name: string) => {
    const found = find(manifests, 'Deployment', name);
    if (!found) throw new Error(`${dir} renders no Deployment "${name}"`);
    return found;
  };
  const appContainer = (name: string): Container => containersOf(deployment(name)).find((container) => container.name === name) as Container;

  it('renders only manifests that are valid against the Kubernetes API schemas', () => {
    expect(manifests.length).toBeGreaterThan(20);
    const problems = manifests.flatMap((manifest) => kubernetesSchemaErrors(manifest).map((error) => `${manifest.kind}/${manifest.metadata?.name}: ${error}`));
    expect(problems).toEqual([]);
  });

  if (overlay !== 'base') {
    it('puts everything in the overlay namespace', () => {
      const namespace = byKind(manifests, 'Namespace')[0]?.metadata.name;
      expect(namespace).toBeDefined();
      const elsewhere = manifests.filter((manifest) => manifest.kind !== 'Namespace' && manifest.metadata.namespace !== namespace);
      expect(elsewhere.map((manifest) => `${manifest.kind}/${manifest.metadata.name}`)).toEqual([]);
    });
  }

  describe.each(PROCESSES.map((spec) => [spec.name, spec] as const))('%s', (name, spec) => {
    it('has a Deployment that runs the entry file the build produces with the runner\'s V8 flags, from its own image', () => {
      const container = appContainer(name);
      expect(container).toBeDefined();
      expect(container.command).toEqual(['node', ...NODE_FLAGS, spec.entry]);
      assertBuilt(spec.entry);
      expect(container.image).toMatch(new RegExp(`(^|/)org-data-platform/${name}(:[\\w.-]+)?$`));
    });

    it('probes /health/live and /health/ready on the HEALTH_PORT the app listens on', () => {
      const container = appContainer(name);
      const healthPort = Number(envValue(manifests, container, 'HEALTH_PORT'));
      expect(healthPort).toBe(spec.healthPort);
      for (const [probe, path] of [
        [container.livenessProbe, '/health/live'],
        [container.readinessProbe, '/health/ready'],
      ] as const) {
        expect(probe?.httpGet?.path).toBe(path);
        expect(resolvePort(container, probe?.httpGet?.port ?? -1)).toBe(healthPort);
      }
      if (HTTP_PORTS[name]) {
        expect(Number(envValue(manifests, container, 'PORT'))).toBe(HTTP_PORTS[name]);
        expect(resolvePort(container, 'http')).toBe(HTTP_PORTS[name]);
      }
    });

    it('has a Service for every port it listens on, selecting its pods', () => {
      const labels = podTemplate(deployment(name)).metadata.labels;
      const container = appContainer(name);
      const listening = [spec.healthPort, ...(HTTP_PORTS[name] ? [HTTP_PORTS[name]] : [])];
      const services = byKind(manifests, 'Service').filter((service) => matches(service.spec.selector, labels));
      const served = services.flatMap((service) => service.spec.ports.map((port: { targetPort: number | string }) => resolvePort(container, port.targetPort)));
      for (const port of listening) expect({ port, served: served.includes(port) }).toEqual({ port, served: true });
    });

    it('sets resource requests and limits, a PodDisruptionBudget, and a grace period above its shutdown timeout', () => {
      const container = appContainer(name);
      for (const kind of ['requests', 'limits'] as const) {
        expect(container.resources?.[kind]?.cpu).toBeDefined();
        expect(container.resources?.[kind]?.memory).toBeDefined();
      }
      const labels = podTemplate(deployment(name)).metadata.labels;
      expect(byKind(manifests, 'PodDisruptionBudget').some((pdb) => matches(pdb.spec.selector.matchLabels, labels))).toBe(true);

      const shutdownMs = Number(envValue(manifests, container, 'SHUTDOWN_TIMEOUT_MS') ?? DEFAULT_SHUTDOWN_TIMEOUT_MS);
      const graceMs = podTemplate(deployment(name)).spec.terminationGracePeriodSeconds * 1000;
      expect(graceMs).toBeGreaterThanOrEqual(shutdownMs + preStopMs(container) + GRACE_MARGIN_MS);
    });

    it('runs as a non-root user and reads its settings from the ConfigMap and the Secret', () => {
      const pod = podTemplate(deployment(name)).spec;
      expect(pod.securityContext.runAsNonRoot).toBe(true);
      expect(pod.securityContext.runAsUser).toBeGreaterThan(0);
      const container = appContainer(name);
      expect(container.envFrom?.some((source) => source.configMapRef)).toBe(true);
      expect(container.envFrom?.some((source) => source.secretRef)).toBe(true);
    });
  });

  it('scales the gateway and the webhook worker with HorizontalPodAutoscalers, and leaves their replicas to them', () => {
    for (const name of AUTOSCALED) {
      const hpa = find(manifests, 'HorizontalPodAutoscaler', name);
      expect(hpa?.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name });
      expect(hpa?.spec.minReplicas).toBeGreaterThanOrEqual(1);
      expect(hpa?.spec.maxReplicas).toBeGreaterThan(hpa?.spec.minReplicas);
      expect(deployment(name).spec.replicas).toBeUndefined();
    }
  });

  it('runs the migration job, which migrates the schema of every app, in a Job', () => {
    const jobs = byKind(manifests, 'Job');
    expect(jobs).toHaveLength(1);
    const [container] = containersOf(jobs[0]);
    expect(container.command).toEqual(['node', MIGRATION_JOB]);
    assertBuilt(MIGRATION_JOB);
    expect(container.image).toMatch(/(^|\/)org-data-platform\/migrate(:[\w.-]+)?$/);
    expect(['Never', 'OnFailure']).toContain(podTemplate(jobs[0]).spec.restartPolicy);
  });

  it('exposes only the gateway through an Ingress with TLS', () => {
    const ingresses = byKind(manifests, 'Ingress');
    expect(ingresses).toHaveLength(1);
    const [ingress] = ingresses;
    const hosts: string[] = ingress.spec.rules.map((rule: { host: string }) => rule.host);
    expect(ingress.spec.tls[0].secretName).toBeTruthy();
    expect(ingress.spec.tls[0].hosts).toEqual(expect.arrayContaining(hosts));
    const backends = ingress.spec.rules.flatMap((rule: { http: { paths: { backend: { service: { name: string; port: { name: string } } } }[] } }) =>
      rule.http.paths.map((path) => path.backend.service),
    );
    for (const backend of backends) {
      expect(backend.name).toBe('gateway');
      const service = find(manifests, 'Service', 'gateway');
      const port = service?.spec.ports.find((candidate: { name: string }) => candidate.name === backend.port.name);
      expect(resolvePort(appContainer('gateway'), port?.targetPort)).toBe(HTTP_PORTS.gateway);
    }
  });

  describe('NetworkPolicies', () => {
    const policies = () => byKind(manifests, 'NetworkPolicy');
    const podsOf = (policy: Manifest) =>
      [...PROCESSES.map((spec) => spec.name), 'migrate'].filter((name) => {
        const workload = find(manifests, 'Deployment', name) ?? byKind(manifests, 'Job')[0];
        return matches(policy.spec.podSelector.matchLabels ?? {}, podTemplate(workload).metadata.labels);
      });

    it('deny all traffic by default', () => {
      expect(
        policies().some(
          (policy) =>
            Object.keys(policy.spec.podSelector).length === 0 &&
            policy.spec.policyTypes.includes('Ingress') &&
            policy.spec.policyTypes.includes('Egress') &&
            !policy.spec.ingress &&
            !policy.spec.egress,
        ),
      ).toBe(true);
    });

    it('let only the gateway take traffic from outside the namespace (besides metrics scrapes)', () => {
      const openings = policies().flatMap((policy) =>
        ((policy.spec.ingress ?? []) as Rule[])
          .filter((rule) => reachesOutside(rule.from))
          .map((rule) => ({ policy: policy.metadata.name, pods: podsOf(policy), metricsOnly: ruleUsesOnly(rule, ['health']) })),
      );
      expect(openings.some((opening) => opening.pods.join() === 'gateway')).toBe(true);
      for (const opening of openings.filter((candidate) => !candidate.metricsOnly)) {
        expect(opening).toEqual({ ...opening, pods: ['gateway'] });
      }
    });

    it('let only the webhook worker call out, domains reach DNS servers, tables and tables-jobs object storage over HTTPS, and apps reach their datastores', () => {
      const exits = policies().flatMap((policy) =>
        ((policy.spec.egress ?? []) as Rule[])
          .filter((rule) => reachesOutside(rule.to))
          .map((rule) => ({
            policy: policy.metadata.name,
            pods: podsOf(policy),
            dnsOnly: ruleUsesOnly(rule, DNS_PORTS),
            httpsOnly: ruleUsesOnly(rule, HTTPS_PORTS),
            datastoresOnly: ruleUsesOnly(rule, DATASTORE_PORTS) && (rule.to ?? []).every((peer) => peer.ipBlock !== undefined),
          })),
      );
      expect(exits.some((exit) => exit.pods.join() === 'webhooks-worker' && !exit.dnsOnly)).toBe(true);
      expect(exits.some((exit) => exit.pods.join() === 'domains' && exit.dnsOnly)).toBe(true);
      expect(exits.some((exit) => exit.pods.join() === 'tables' && exit.httpsOnly)).toBe(true);
      expect(exits.some((exit) => exit.pods.join() === 'tables-jobs' && exit.httpsOnly)).toBe(true);
      for (const exit of exits) {
        const allowed =
          exit.pods.join() === 'webhooks-worker' ||
          (exit.dnsOnly && exit.pods.join() === 'domains') ||
          (exit.httpsOnly && ['tables', 'tables-jobs'].includes(exit.pods.join())) ||
          exit.datastoresOnly;
        expect({ ...exit, allowed }).toEqual({ ...exit, allowed: true });
      }
    });
  });

  it('refers only to ConfigMaps and Secrets that are rendered (or, outside dev, the documented external Secret)', () => {
    const workloads = [...byKind(manifests, 'Deployment'), ...byKind(manifests, 'StatefulSet'), ...byKind(manifests, 'Job')];
    const missing: string[] = [];
    for (const workload of workloads) {
      const pod = podTemplate(workload).spec;
      const refs = [
        ...pod.containers.flatMap((container: Container) => container.envFrom ?? []),
        ...(pod.volumes ?? []).filter((volume: { configMap?: unknown }) => volume.configMap).map((volume: { configMap: { name: string } }) => ({ configMapRef: volume.configMap })),
      ];
      for (const ref of refs) {
        if (ref.configMapRef && !find(manifests, 'ConfigMap', ref.configMapRef.name)) missing.push(`ConfigMap ${ref.configMapRef.name}`);
        if (ref.secretRef && !find(manifests, 'Secret', ref.secretRef.name)) {
          if (overlay === 'dev' || ![EXTERNAL_SECRET, STORAGE_SECRET].includes(ref.secretRef.name)) missing.push(`Secret ${ref.secretRef.name}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  if (overlay !== 'base') {
    it('runs NATS JetStream as a 3-node StatefulSet behind the NATS_URL the apps use', () => {
      const nats = find(manifests, 'StatefulSet', 'nats');
      expect(nats?.spec.replicas).toBe(3);
      const config = byKind(manifests, 'ConfigMap').find((configMap) => configMap.data?.['nats.conf']);
      expect(config?.data?.['nats.conf']).toMatch(/jetstream\s*\{/);
      expect(config?.data?.['nats.conf']).toMatch(/cluster\s*\{/);
      // Each server of the list is a pod of the StatefulSet by its name under the headless Service.
      const servers = (envValue(manifests, appContainer('tables'), 'NATS_URL') ?? '').split(',').map((server) => new URL(server));
      expect(servers).toHaveLength(3);
      for (const natsUrl of servers) {
        const [pod, serviceName] = natsUrl.hostname.split('.');
        expect(pod).toMatch(/^nats-[0-2]$/);
        const service = find(manifests, 'Service', serviceName);
        expect(matches(service?.spec.selector, podTemplate(nats as Manifest).metadata.labels)).toBe(true);
        expect(service?.spec.ports.map((port: { port: number }) => port.port)).toContain(Number(natsUrl.port));
      }
    });
  }

  if (overlay === 'dev') {
    it('runs throwaway Postgres and Redis (AOF, noeviction) that the generated Secret points at', () => {
      const secret = byKind(manifests, 'Secret').find((candidate) => candidate.metadata.name.startsWith(EXTERNAL_SECRET));
      const decode = (key: string) => new URL(Buffer.from(secret?.data?.[key] ?? '', 'base64').toString());
      expect(find(manifests, 'Service', decode('DATABASE_URL').hostname)).toBeDefined();
      expect(find(manifests, 'Service', decode('REDIS_URL').hostname)).toBeDefined();
      const redis = containersOf(find(manifests, 'StatefulSet', 'redis') as Manifest)[0] as Container & { args: string[] };
      expect(redis.args.join(' ')).toMatch(/--appendonly yes.*--maxmemory-policy noeviction/);
    });

    it('runs a throwaway MinIO, its bucket made at start, that the generated storage Secret points at', () => {
      const secret = byKind(manifests, 'Secret').find((candidate) => candidate.metadata.name.startsWith(STORAGE_SECRET));
      const value = (key: string) => Buffer.from(secret?.data?.[key] ?? '', 'base64').toString();
      expect(find(manifests, 'Service', new URL(value('S3_ENDPOINT')).hostname)).toBeDefined();
      const minio = containersOf(find(manifests, 'StatefulSet', 'minio') as Manifest)[0] as Container & { args: string[] };
      expect(minio.args.join(' ')).toContain(`mc mb --ignore-existing`);
      expect(appContainer('tables').envFrom).toContainEqual({ secretRef: { name: secret?.metadata.name } });
    });
  }

  if (overlay === 'prod') {
    it('runs no database of its own: Postgres and Redis are managed, reached through the external Secret', () => {
      expect(find(manifests, 'StatefulSet', 'postgres')).toBeUndefined();
      expect(find(manifests, 'StatefulSet', 'redis')).toBeUndefined();
      expect(byKind(manifests, 'Secret')).toEqual([]);
      expect(appContainer('gateway').envFrom).toContainEqual({ secretRef: { name: EXTERNAL_SECRET } });
      expect(appContainer('tables').envFrom).toContainEqual({ secretRef: { name: STORAGE_SECRET } });
      expect(appContainer('gateway').envFrom).not.toContainEqual({ secretRef: { name: STORAGE_SECRET } });
    });
  }
});
