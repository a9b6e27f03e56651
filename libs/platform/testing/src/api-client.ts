import { type ApiClient as SdkClient, createApiClient } from '@org-data-platform/sdk';
import { expectMatchesOpenApi, isDocumentedOperation } from './openapi-validate';
import type { ApiResponse } from './api-response';
import { gatewayUrl } from './stack-state';

export type { ApiResponse } from './api-response';

export interface RequestOptions {
  body?: unknown;
  /** Sent as is, by a plain fetch rather than the SDK, for malformed or oversized bodies. */
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
}

const REQUEST_TIMEOUT_MS = 30_000;
type Method = 'get' | 'put' | 'post' | 'delete' | 'patch' | 'options' | 'head' | 'trace';
/** The SDK's `request` with a concrete path (`/tables/<id>`) in place of its typed template. */
type UntypedRequest = (method: Method, path: string, init: object) => Promise<unknown>;

/** The path after the base URL's path (`/v1`), query included: what openapi.json's paths are relative to. */
function apiPathOf(url: string, baseUrl: string): string {
  const { pathname, search } = new URL(url);
  return pathname.slice(new URL(baseUrl).pathname.replace(/\/+$/, '').length) + search;
}

/** Every answer to a documented operation must match openapi.json, in every test that calls the API. */
function checkAgainstOpenApi(method: string, path: string, response: ApiResponse): void {
  if (isDocumentedOperation(method, path)) expectMatchesOpenApi(method, path, response);
}

/**
 * The SDK's typed client for one API key, on the test stack unless told otherwise, that checks each
 * answer against openapi.json: `await sdkClient(org.key).POST('/tables', { body })`.
 */
export function sdkClient(key: string | undefined, baseUrl = gatewayUrl()): SdkClient {
  const client = createApiClient({ baseUrl, apiKey: key ?? '', fetch: (request) => fetch(request, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) }) });
  client.use({
    onRequest: ({ request }) => {
      // Without a key the request goes out with no Authorization header at all, as a careless client's would.
      if (key === undefined) request.headers.delete('authorization');
      return request;
    },
    onResponse: async ({ request, response }) => {
      const text = await response.clone().text();
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : undefined;
      } catch {
        // not JSON: compared as text
      }
      checkAgainstOpenApi(request.method, apiPathOf(request.url, baseUrl), { status: response.status, headers: {}, body });
      return response;
    },
  });
  return client;
}

/**
 * A client of the gateway for one API key, on the SDK: paths are relative to /v1 (of the test stack
 * unless told otherwise) and may be concrete (`/tables/${id}`); answers come back as status, headers and
 * parsed body, each checked against openapi.json. `sdk` is the same client with typed calls.
 */
export function apiClient(key?: string, baseUrl = gatewayUrl()) {
  const sdk = sdkClient(key, baseUrl);
  const raw = async (method: string, path: string, options: RequestOptions): Promise<Response> => {
    const headers: Record<string, string> = { ...(key ? { authorization: `Bearer ${key}` } : {}), ...options.headers };
    return fetch(baseUrl + path, { method, headers, body: options.rawBody, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  };
  const request = async <T = any>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> => {
    let res: Response;
    // The SDK always sends its own key; a request whose Authorization the test writes itself goes out as written.
    const unchecked = options.rawBody !== undefined || (key === undefined && options.headers?.authorization !== undefined);
    if (unchecked) {
      res = await raw(method, path, options);
    } else {
      // Through the SDK (which checks the answer against openapi.json); this fetch keeps a copy of the
      // answer, whose body the SDK reads, for the test to see as it came.
      let answer: Response | undefined;
      const keepAnswer = async (sent: Request) => {
        const received = await fetch(sent, { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
        answer = received.clone();
        return received;
      };
      const init = { headers: options.headers, fetch: keepAnswer, ...(options.body !== undefined ? { body: options.body } : {}) };
      await (sdk.request as UntypedRequest)(method.toLowerCase() as Method, path, init);
      if (!answer) throw new Error(`${method} ${path}: no answer`);
      res = answer;
    }
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: the raw text is what the test gets to see
    }
    const response = { status: res.status, headers: Object.fromEntries(res.headers.entries()), body: parsed as T };
    if (unchecked) checkAgainstOpenApi(method, path, response);
    return response;
  };
  return {
    sdk,
    request,
    get: <T = any>(path: string, options?: RequestOptions) => request<T>('GET', path, options),
    post: <T = any>(path: string, body?: unknown, options?: RequestOptions) => request<T>('POST', path, { ...options, body }),
    patch: <T = any>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PATCH', path, { ...options, body }),
    put: <T = any>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PUT', path, { ...options, body }),
    delete: <T = any>(path: string, options?: RequestOptions) => request<T>('DELETE', path, options),
  };
}

export type ApiClient = ReturnType<typeof apiClient>;
