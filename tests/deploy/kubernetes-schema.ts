import type { Manifest } from './kustomize-render';

type ModelClass = new (data: unknown) => { validate(): void };

/** The kubernetes-models module path of an apiVersion/kind, e.g. apps/v1 Deployment -> kubernetes-models/apps/v1/Deployment. */
function modelPath(apiVersion: string, kind: string): string {
  return `kubernetes-models/${apiVersion}/${kind}`;
}

/**
 * kustomize wraps long base64 Secret values over several lines; the API server reads them with Go's
 * base64 decoder, which skips line breaks, while the schema's "byte" format does not.
 */
function withoutBase64LineBreaks(manifest: Manifest): Manifest {
  if (manifest.kind !== 'Secret' || !manifest.data) return manifest;
  const data = Object.fromEntries(Object.entries(manifest.data).map(([key, value]) => [key, value.replace(/[\r\n]/g, '')]));
  return { ...manifest, data };
}

/**
 * Validates one manifest against the Kubernetes API schema of its kind (kubernetes-models); answers the
 * problems found, empty when valid. A kind the package does not know is a problem too.
 */
export function kubernetesSchemaErrors(manifest: Manifest): string[] {
  let Model: ModelClass;
  try {
     
    Model = (require(modelPath(manifest.apiVersion, manifest.kind)) as Record<string, ModelClass>)[manifest.kind];
  } catch {
    return [`${manifest.apiVersion} ${manifest.kind} is not a known Kubernetes API kind`];
  }
  try {
    new Model(withoutBase64LineBreaks(manifest)).validate();
    return [];
  } catch (error) {
    return [(error as Error).message];
  }
}
