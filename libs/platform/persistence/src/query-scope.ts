import { AsyncLocalStorage } from 'node:async_hooks';

/** Who a piece of work is done for, and until when its caller waits for it: one per request. */
export interface QueryScope {
  organizationId: string;
  /** Epoch milliseconds after which nobody waits for the answer any more. */
  deadline: number;
}

const scopes = new AsyncLocalStorage<QueryScope>();

/** Runs `work` (and everything it starts) in the scope: its queries take the organization's share and end by the deadline. */
export function runInQueryScope<T>(scope: QueryScope, work: () => T): T {
  return scopes.run(scope, work);
}

export function currentQueryScope(): QueryScope | undefined {
  return scopes.getStore();
}

/** The caller stopped waiting before the work could get a connection. */
export class DeadlineExceededError extends Error {
  constructor(message = 'The deadline passed before a database connection was free') {
    super(message);
    this.name = 'DeadlineExceededError';
  }
}
