/** An answer of the API as a test sees it: status, headers and parsed body. */
export interface ApiResponse<T = any> {
  status: number;
  headers: Record<string, string>;
  body: T;
}
