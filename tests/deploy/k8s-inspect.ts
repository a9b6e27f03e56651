/* Small readers over rendered Kubernetes manifests, for the deploy tests. */
import type { Manifest } from './kustomize-render';

export interface Container {
  name: string;
  image: string;
  command?: string[];
  env?: { name: string; value?: string }[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  ports?: { name?: string; containerPort: number }[];
  livenessProbe?: Probe;
  readinessProbe?: Probe;
  startupProbe?: Probe;
  lifecycle?: { preStop?: { exec?: { command: string[] } } };
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> };
}

export interface Probe {
  httpGet?: { path: string; port: number | string };
}

export const byKind = (manifests: Manifest[], kind: string) => manifests.filter((manifest) => manifest.kind === kind);

export function find(manifests: Manifest[], kind: string, name: string): Manifest | undefined {
  return manifests.find((manifest) => manifest.kind === kind && manifest.metadata.name === name);
}

export function podTemplate(workload: Manifest): { metadata: { labels: Record<string, string> }; spec: any } {  
  return workload.spec.template;
}

export const containersOf = (workload: Manifest): Container[] => podTemplate(workload).spec.containers;

/** A named or numbered container port, as a number. */
export function resolvePort(container: Container, port: number | string): number | undefined {
  if (typeof port === 'number') return port;
  return container.ports?.find((candidate) => candidate.name === port)?.containerPort;
}

/** An environment variable as the container sees it: its own env first, then its envFrom ConfigMaps. */
export function envValue(manifests: Manifest[], container: Container, name: string): string | undefined {
  const own = container.env?.find((variable) => variable.name === name);
  if (own) return own.value;
  for (const source of container.envFrom ?? []) {
    const configMap = source.configMapRef && find(manifests, 'ConfigMap', source.configMapRef.name);
    if (configMap?.data?.[name] !== undefined) return configMap.data[name];
  }
  return undefined;
}

export const matches = (selector: Record<string, string> | undefined, labels: Record<string, string>) =>
  selector !== undefined && Object.entries(selector).every(([key, value]) => labels[key] === value);

/** The preStop pause before SIGTERM, in ms (our preStop hooks are `sleep N`). */
export function preStopMs(container: Container): number {
  const command = container.lifecycle?.preStop?.exec?.command;
  return command?.[0] === 'sleep' ? Number(command[1]) * 1000 : 0;
}
