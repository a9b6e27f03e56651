import createClient, { type Client, type ClientPathsWithMethod, type FetchResponse, type MaybeOptionalInit } from 'openapi-fetch';
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

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T];
type InitArgs<Init> = [RequiredKeys<Init>] extends [never] ? [init?: Init] : [init: Init];
/** One method of the data client: the success body of the call, or an `ApiError` thrown. */
type DataMethod<M extends Method> = <Path extends ClientPathsWithMethod<ApiClient, M>, Init extends MaybeOptionalInit<paths[Path], M>>(
  url: Path,
  ...init: InitArgs<Init>
) => Promise<NonNullable<FetchResponse<paths[Path][M] & Record<string | number, unknown>, Init, `${string}/${string}`>['data']>>;

/**
 * The client made with `throwOnError: true`: each call answers the success body (`{success, data,
 * pagination?}`) and throws an `ApiError` (status, code, message, details) for anything else.
 */
export interface DataClient {
  GET: DataMethod<'get'>;
  POST: DataMethod<'post'>;
  PUT: DataMethod<'put'>;
  PATCH: DataMethod<'patch'>;
  DELETE: DataMethod<'delete'>;
}

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
export function createApiClient(options: ApiClientOptions & { throwOnError: true }): DataClient;
export function createApiClient(options: ApiClientOptions & { throwOnError?: false }): ApiClient;
export function createApiClient({ baseUrl, apiKey, fetch, headers, throwOnError }: ApiClientOptions & { throwOnError?: boolean }): ApiClient | DataClient {
  const client = createClient<paths>({
    baseUrl: baseUrl.replace(/\/+$/, ''),
    headers: { ...headers, Authorization: `Bearer ${apiKey}` },
    ...(fetch ? { fetch } : {}),
  });
  return throwOnError ? throwingOnError(client) : client;
}

function throwingOnError(client: ApiClient): DataClient {
  const method =
    (name: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE') =>
    async (url: string, init?: object): Promise<unknown> => {
      const call = client[name] as (url: string, init?: object) => Promise<{ data?: unknown; error?: ErrorResponse; response: Response }>;
      const { data, error, response } = await call(url, init);
      if (error !== undefined) throw new ApiError(response.status, error);
      return data;
    };
  return { GET: method('GET'), POST: method('POST'), PUT: method('PUT'), PATCH: method('PATCH'), DELETE: method('DELETE') } as DataClient;
}

/** A failed call: the HTTP status and the error body's `code`, `message` and `details`. */
export class ApiError extends Error {
  readonly code: ErrorResponse['error']['code'];
  readonly details: ErrorResponse['error']['details'];

  constructor(
    readonly status: number,
    readonly body: ErrorResponse,
  ) {
    super(body.error.message);
    this.name = 'ApiError';
    this.code = body.error.code;
    this.details = body.error.details;
  }
}
