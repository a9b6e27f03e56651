import type { Sql } from './database';

/** The hooks of each transaction in progress, by the connection it runs on. */
const open = new WeakMap<Sql, Set<() => void>>();

/** Marks `tx` as a transaction whose `afterCommit` hooks wait for its end. */
export function beginCommitHooks(tx: Sql): void {
  open.set(tx, new Set());
}

/** Ends the transaction on `tx`: its hooks run once each when it committed, and are dropped when it rolled back. */
export function endCommitHooks(tx: Sql, committed: boolean): void {
  const hooks = open.get(tx);
  open.delete(tx);
  if (committed) for (const hook of hooks ?? []) hook();
}

/**
 * Runs `hook` once what `db` wrote is visible to others: when its transaction commits, or at once when
 * `db` is not inside one (a statement on its own commits as it ends). The same hook registered twice in
 * one transaction runs once.
 */
export function afterCommit(db: Sql, hook: () => void): void {
  const hooks = open.get(db);
  if (hooks) hooks.add(hook);
  else hook();
}
