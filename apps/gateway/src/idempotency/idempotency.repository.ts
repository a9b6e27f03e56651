import { Injectable } from '@nestjs/common';
import { IDENTITY_SCHEMA } from '@identity';
import { Database } from '@platform/persistence';

const IDEMPOTENCY_KEYS_TABLE = `${IDENTITY_SCHEMA}.idempotency_keys`;

/** How long an answer is kept for replay. */
export const IDEMPOTENCY_RETENTION = '24 hours';

export type Claim =
  | { kind: 'claimed' }
  | { kind: 'replay'; status: number; response: string }
  | { kind: 'different-request' }
  | { kind: 'in-flight' };

interface StoredKey {
  request_hash: Buffer;
  status: number | null;
  response: string | null;
}

/** Idempotency keys in the gateway's schema: the first request with a key claims it, later ones read its answer. */
@Injectable()
export class IdempotencyRepository {
  constructor(private readonly db: Database) {}

  /**
   * One statement claims the key when it is new, expired, or held by a request of the same body whose
   * gateway died (its lease ran out). Two racing requests cannot both claim it: the primary key decides.
   */
  async claim(organizationId: string, key: string, requestHash: Buffer, leaseMs: number): Promise<Claim> {
    const { rowCount: claimed } = await this.db.query(
      `INSERT INTO ${IDEMPOTENCY_KEYS_TABLE} AS k (organization_id, key, request_hash, locked_until)
       VALUES ($1, $2, $3, now() + $4 * interval '1 millisecond')
       ON CONFLICT (organization_id, key) DO UPDATE
         SET request_hash = EXCLUDED.request_hash, locked_until = EXCLUDED.locked_until, status = NULL, response = NULL, created_at = now()
         WHERE k.created_at < now() - interval '${IDEMPOTENCY_RETENTION}'
            OR (k.status IS NULL AND k.locked_until < now() AND k.request_hash = EXCLUDED.request_hash)
       RETURNING 1`,
      [organizationId, key, requestHash, leaseMs],
    );
    if (claimed) return { kind: 'claimed' };
    const {
      rows: [stored],
    } = await this.db.query<StoredKey>(
      `SELECT request_hash, status, response FROM ${IDEMPOTENCY_KEYS_TABLE} WHERE organization_id = $1 AND key = $2`,
      [organizationId, key],
    );
    // Gone between the two statements (its request failed and released it): the client may simply retry.
    if (!stored) return { kind: 'in-flight' };
    if (!stored.request_hash.equals(requestHash)) return { kind: 'different-request' };
    if (stored.status === null || stored.response === null) return { kind: 'in-flight' };
    return { kind: 'replay', status: stored.status, response: stored.response };
  }

  async complete(organizationId: string, key: string, status: number, response: string): Promise<void> {
    await this.db.query(`UPDATE ${IDEMPOTENCY_KEYS_TABLE} SET status = $3, response = $4 WHERE organization_id = $1 AND key = $2`, [
      organizationId,
      key,
      status,
      response,
    ]);
  }

  /** A request that did not succeed leaves nothing behind, so the client can retry it with the same key. */
  async release(organizationId: string, key: string): Promise<void> {
    await this.db.query(`DELETE FROM ${IDEMPOTENCY_KEYS_TABLE} WHERE organization_id = $1 AND key = $2 AND status IS NULL`, [organizationId, key]);
  }

  /** Deletes up to `limit` expired keys; answers how many went. */
  async pruneExpired(limit: number): Promise<number> {
    const { rowCount } = await this.db.query(
      `DELETE FROM ${IDEMPOTENCY_KEYS_TABLE} WHERE ctid IN (
         SELECT ctid FROM ${IDEMPOTENCY_KEYS_TABLE} WHERE created_at < now() - interval '${IDEMPOTENCY_RETENTION}' LIMIT $1)`,
      [limit],
    );
    return rowCount ?? 0;
  }
}
