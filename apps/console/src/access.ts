import { ApiError, type DataClient } from '@org-data-platform/sdk';

export type Area = 'tables' | 'webhooks' | 'domains' | 'calendar';

/** What a key may do in one area of the API, and why not when it may not (the API's 403 message). */
export interface AreaAccess {
  read: boolean;
  write: boolean;
  refusal?: string;
}
export type Access = Record<Area, AreaAccess>;

/**
 * A body with a property no operation takes. The API checks the key's scope (and plan) before the body,
 * so this write is refused either with a 403 (the key may not write here) or a VALIDATION_ERROR (it
 * may): nothing is ever written.
 */
const REFUSED_BODY = { console_access_probe: true } as never;

const probes: Record<Area, { read(api: DataClient): Promise<unknown>; write(api: DataClient): Promise<unknown> }> = {
  tables: {
    read: (api) => api.GET('/tables', { params: { query: { limit: 1 } } }),
    write: (api) => api.POST('/tables', { body: REFUSED_BODY }),
  },
  webhooks: {
    read: (api) => api.GET('/webhooks', { params: { query: { limit: 1 } } }),
    write: (api) => api.POST('/webhooks', { body: REFUSED_BODY }),
  },
  domains: {
    read: (api) => api.GET('/domains', { params: { query: { limit: 1 } } }),
    write: (api) => api.POST('/domains', { body: REFUSED_BODY }),
  },
  calendar: {
    read: (api) => api.GET('/calendar/availability'),
    write: (api) => api.PUT('/calendar/availability', { body: REFUSED_BODY }),
  },
};

/** undefined when the call was let through, the 403's message when the key or plan forbids it. */
async function refusal(call: Promise<unknown>): Promise<string | undefined> {
  try {
    await call;
    return undefined;
  } catch (error) {
    // A 401 means the key itself is wrong: signing in fails with the API's message.
    if (error instanceof ApiError && error.status === 401) throw error;
    if (error instanceof ApiError && error.status === 403) return `${error.code}: ${error.message}`;
    return undefined;
  }
}

/**
 * The API has no call that describes a key, so the console asks each area once: a list (read) and a
 * refused write. What answers 403 is not offered; the rest is, and any later 403 is shown where it happens.
 */
export async function probeAccess(api: DataClient): Promise<Access> {
  const areas = Object.keys(probes) as Area[];
  const answers = await Promise.all(
    areas.map(async (area) => {
      const [read, write] = await Promise.all([refusal(probes[area].read(api)), refusal(probes[area].write(api))]);
      return [area, { read: read === undefined, write: read === undefined && write === undefined, refusal: read ?? write }] as const;
    }),
  );
  return Object.fromEntries(answers) as Access;
}
