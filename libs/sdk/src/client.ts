import createClient, { type Client } from 'openapi-fetch';
import type { components, paths } from './api-types';

export interface ApiClientOptions {
  /** The API's base URL, version included: `https://api.example.com/v1`, `http://localhost:3000/v1`. */
  baseUrl: string;
  /** An API key; sent as `Authorization: Bearer <apiKey>` on every request. */
  apiKey: string;
  /** A fetch to use instead of the global one (tests, proxies, retries). */
  fetch?: (request: Request) => Promise<Response>;
  /** More headers for every request (`Idempotency-Key` goes on the single call instead). */
  headers?: Record<string, string>;
}

/** The client: `GET`, `POST`, `PUT`, `PATCH`, `DELETE` on the API's paths, with typed params, bodies, data and errors. */
export type ApiClient = Client<paths>;

/** A schema of the API by name: `Schema<'TableDetail'>`, `Schema<'RowEventPayload'>`. */
export type Schema<Name extends keyof components['schemas']> = components['schemas'][Name];

/** The body of every failure, whatever the status. */
export type ErrorResponse = Schema<'ErrorResponse'>;

/**
 * A typed client of the API. Each call answers `{data, error, response}`: `data` is the success body
 * (`{success: true, data, pagination?}`), `error` the error body, and `response` the raw Response.
 *
 *     const api = createApiClient({ baseUrl: 'http://localhost:3000/v1', apiKey: process.env.KEY! });
 *     const { data, error } = await api.POST('/tables/{table_id}/rows', { params: { path: { table_id } }, body: { data: { email } } });
 */
export function createApiClient({ baseUrl, apiKey, fetch, headers }: ApiClientOptions): ApiClient {
  return createClient<paths>({
    baseUrl: baseUrl.replace(/\/+$/, ''),
    headers: { ...headers, Authorization: `Bearer ${apiKey}` },
    ...(fetch ? { fetch } : {}),
  });
}

/** A failed call, for code that prefers exceptions to checking `error` (the iterators throw it). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorResponse,
  ) {
    super(`${status} ${body.error.code}: ${body.error.message}`);
    this.name = 'ApiError';
  }
}
