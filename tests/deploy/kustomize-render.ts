import { spawnSync } from 'node:child_process';
import { parseAllDocuments } from 'yaml';
import { repoPath } from './repo-paths';

export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: any;  
  data?: Record<string, string>;
}

const INSTALL_HINT =
  'Install kubectl >= 1.21 (its built-in kustomize supports components) or the kustomize binary, e.g. ' +
  'the Kubernetes apt repository: https://kubernetes.io/docs/tasks/tools/install-kubectl-linux/ ' +
  "(Debian bookworm's kubernetes-client 1.20 is too old for kustomize components).";

/** Which real kustomize renderer this machine has: the standalone binary or `kubectl kustomize`. */
function renderer(): { command: string; args: string[] } {
  for (const candidate of [
    { command: 'kustomize', args: ['build'], probe: ['version'] },
    { command: 'kubectl', args: ['kustomize'], probe: ['version', '--client'] },
  ]) {
    const probe = spawnSync(candidate.command, candidate.probe, { encoding: 'utf8' });
    if (probe.status === 0) return candidate;
  }
  throw new Error(`No kustomize renderer found on PATH. ${INSTALL_HINT}`);
}

/** Renders a kustomization directory with the real renderer and answers its manifests. */
export function renderKustomization(dir: string): Manifest[] {
  const { command, args } = renderer();
  const result = spawnSync(command, [...args, repoPath(dir)], { encoding: 'utf8', maxBuffer: 32 * 1024 * 1024 });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} ${dir} failed:\n${result.stderr}`);
  return parseAllDocuments(result.stdout).map((document) => {
    if (document.errors.length > 0) throw new Error(`${dir} rendered invalid YAML: ${document.errors[0].message}`);
    return document.toJS() as Manifest;
  });
}
