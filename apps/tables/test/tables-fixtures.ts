import { admin, ApiClient, apiClient, createTestOrg } from '@platform/testing';

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
export const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

export interface OrgClient {
  orgId: string;
  api: ApiClient;
  /** More clients of the same organization, each with its own key and so its own rate-limit budget. */
  extraKey(): Promise<ApiClient>;
}

export async function newOrg(scopes = '*'): Promise<OrgClient> {
  const org = await createTestOrg({ scopes });
  return {
    orgId: org.orgId,
    api: apiClient(org.key),
    extraKey: async () => apiClient((await admin('key', 'create', '--org', org.orgId, '--scopes', scopes)).key),
  };
}

let counter = 0;
export function uniqueName(prefix = 'Table'): string {
  counter += 1;
  return `${prefix} ${Date.now().toString(36)} ${process.pid} ${counter}`;
}

/** A table of every field type; answers its id and the detail. */
export async function createTable(api: ApiClient, fields: unknown[], name = uniqueName()): Promise<{ id: string; detail: any }> {
  const res = await api.post('/tables', { name, fields });
  if (res.status !== 201) throw new Error(`table create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { id: res.body.data.id, detail: res.body.data };
}

export function filterQuery(filter: unknown, extra = ''): string {
  return `?filter=${encodeURIComponent(JSON.stringify(filter))}${extra}`;
}
