import { expectMatchesOpenApi, isDocumentedOperation } from './openapi-validate';
import { gatewayUrl } from './stack-state';

export interface ApiResponse<T = any> {
  status: number;
  headers: Record<string, string>;
  body: T;
}

export interface RequestOptions {
  body?: unknown;
  /** Sent as is, for malformed or oversized bodies. */
  rawBody?: string | Buffer;
  headers?: Record<string, string>;
}

/**
 * A client of the gateway for one API key; paths are relative to /v1 (of the test stack unless told
 * otherwise). It checks each answer to a documented operation against openapi.json.
 */
export function apiClient(key?: string, baseUrl?: string) {
  const request = async <T = any>(method: string, path: string, options: RequestOptions = {}): Promise<ApiResponse<T>> => {
    const headers: Record<string, string> = { ...(key ? { authorization: `Bearer ${key}` } : {}), ...options.headers };
    let body: string | Buffer | undefined = options.rawBody;
    if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
    const res = await fetch((baseUrl ?? gatewayUrl()) + path, { method, headers, body, signal: AbortSignal.timeout(30_000) });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: the raw text is what the test gets to see
    }
    const response = { status: res.status, headers: Object.fromEntries(res.headers.entries()), body: parsed as T };
    // Every answer to a documented operation must match openapi.json, in every test that calls the API.
    if (isDocumentedOperation(method, path)) expectMatchesOpenApi(method, path, response);
    return response;
  };
  return {
    request,
    get: <T = any>(path: string, options?: RequestOptions) => request<T>('GET', path, options),
    post: <T = any>(path: string, body?: unknown, options?: RequestOptions) => request<T>('POST', path, { ...options, body }),
    patch: <T = any>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PATCH', path, { ...options, body }),
    put: <T = any>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PUT', path, { ...options, body }),
    delete: <T = any>(path: string, options?: RequestOptions) => request<T>('DELETE', path, options),
  };
}

export type ApiClient = ReturnType<typeof apiClient>;
