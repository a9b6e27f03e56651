import type { ErrorBody } from './error-body';

/** The organization a request acts for; the gateway attaches it to every message it sends. */
export interface OrgContext {
  id: string;
  /** Plan price in USD per month. */
  plan: number;
  addons: string[];
}

/** What the gateway sends over NATS: who asks, and the validated input of the route. */
export interface ServiceRequest<P = Record<string, unknown>> {
  org: OrgContext;
  requestId: string;
  /**
   * One id per call of the gateway, the same when it sends the call again (its first send went unanswered):
   * a write that names what it creates after it (a row create) commits it once however often it arrives.
   */
  callId: string;
  /** How long the caller waits for the reply, in milliseconds from sending it; the service's SQL ends by then. */
  timeoutMs: number;
  params: P;
}

export interface Pagination {
  page: number;
  limit: number;
  total: number;
  /** Row lists: the cursor of the next page, null on the last one. */
  next_cursor?: string | null;
}

/** A service's successful answer: the response body without `success`. */
export interface ServiceResult<T = unknown> {
  data?: T;
  pagination?: Pagination;
  message?: string;
  /** An upsert batch: what it did to each row, in order (`created`, `updated`, `unchanged`). */
  actions?: string[];
}

export type ServiceReply<T = unknown> = ({ ok: true } & ServiceResult<T>) | { ok: false; error: ErrorBody };
