import { Injectable } from '@nestjs/common';
import { Database, Sql } from '@platform/persistence';
import { DOMAINS_OUTBOX, DOMAINS_TABLE } from '../domains-schema';
import type { CheckOutcome, CheckResultState, CheckedDomain } from '../verification/domain-check';
import type { DomainEntity } from './domain.entity';
import { domainEvent } from './domain-event';

const COLUMNS = `id, organization_id AS "organizationId", domain, status, type, dkim_selector_1 AS "dkimSelector1",
  dkim_selector_2 AS "dkimSelector2", dns_configured AS "dnsConfigured", mx_verified AS "mxVerified", spf_verified AS "spfVerified",
  dkim_verified AS "dkimVerified", verified_at AS "verifiedAt", checked_at AS "checkedAt", issues, next_check_at AS "nextCheckAt",
  created_at AS "createdAt", updated_at AS "updatedAt"`;

/** A domain the background re-check took: enough to look its records up, and the claim that proves it is still ours. */
export interface ClaimedDomain {
  id: string;
  organizationId: string;
  domain: string;
  selectors: [string, string];
  claim: Date;
}

interface ClaimedRow {
  id: string;
  organization_id: string;
  domain: string;
  dkim_selector_1: string;
  dkim_selector_2: string;
}

/** Every query is scoped by organization: another organization's domain does not exist for the caller. */
@Injectable()
export class DomainsRepository {
  constructor(private readonly db: Database) {}

  /** `lock` holds the domain FOR UPDATE until the caller's transaction ends. */
  async findOne(organizationId: string, id: string, db: Sql = this.db, lock = false): Promise<DomainEntity | undefined> {
    const { rows } = await db.query<DomainEntity>(
      `SELECT ${COLUMNS} FROM ${DOMAINS_TABLE} WHERE organization_id = $1 AND id = $2${lock ? ' FOR UPDATE' : ''}`,
      [organizationId, id],
    );
    return rows[0];
  }

  async page(organizationId: string, offset: number, limit: number): Promise<[DomainEntity[], number]> {
    const [{ rows }, { rows: [count] }] = await Promise.all([
      this.db.query<DomainEntity>(
        `SELECT ${COLUMNS} FROM ${DOMAINS_TABLE} WHERE organization_id = $1 ORDER BY created_at, id LIMIT $2 OFFSET $3`,
        [organizationId, limit, offset],
      ),
      this.db.query<{ total: number }>(`SELECT count(*)::int AS total FROM ${DOMAINS_TABLE} WHERE organization_id = $1`, [organizationId]),
    ]);
    return [rows, count.total];
  }

  /**
   * A new domain starts pending, with nothing verified yet. A name that another organization let fail
   * (never verified within the window) is released to it: that domain is deleted, with its
   * `domain.deleted`, in the same transaction. Any other holder makes the insert a unique violation.
   */
  async insert(
    values: Pick<DomainEntity, 'organizationId' | 'domain' | 'dkimSelector1' | 'dkimSelector2' | 'createdAt' | 'nextCheckAt'>,
  ): Promise<DomainEntity> {
    return this.db.transaction(async (tx) => {
      const { rows: released } = await tx.query<DomainEntity>(
        `DELETE FROM ${DOMAINS_TABLE} WHERE domain = $1 AND status = 'failed' AND organization_id <> $2 RETURNING ${COLUMNS}`,
        [values.domain, values.organizationId],
      );
      if (released.length > 0) await DOMAINS_OUTBOX.write(tx, released.map((domain) => domainEvent('domain.deleted', domain)));
      const { rows } = await tx.query<DomainEntity>(
        `INSERT INTO ${DOMAINS_TABLE} (organization_id, domain, dkim_selector_1, dkim_selector_2, created_at, next_check_at)
         VALUES ($1, $2, $3, $4, $5, $6) RETURNING ${COLUMNS}`,
        [values.organizationId, values.domain, values.dkimSelector1, values.dkimSelector2, values.createdAt, values.nextCheckAt],
      );
      return rows[0];
    });
  }

  /**
   * Takes up to `limit` domains whose check is due, moving their next check to `claim` (a lease): other
   * replicas skip the locked rows now and find them not due afterwards, so no domain is checked twice at
   * once. A replica that dies mid-check leaves the domain due again when the lease ends.
   */
  async claimDue(limit: number, now: Date, claim: Date): Promise<ClaimedDomain[]> {
    const { rows } = await this.db.query<ClaimedRow>(
      `UPDATE ${DOMAINS_TABLE} SET next_check_at = $3
       WHERE id IN (
         SELECT id FROM ${DOMAINS_TABLE} WHERE next_check_at <= $2
         ORDER BY next_check_at LIMIT $1 FOR UPDATE SKIP LOCKED)
       RETURNING id, organization_id, domain, dkim_selector_1, dkim_selector_2`,
      [limit, now, claim],
    );
    return rows.map((row) => ({
      id: row.id,
      organizationId: row.organization_id,
      domain: row.domain,
      selectors: [row.dkim_selector_1, row.dkim_selector_2],
      claim,
    }));
  }

  /**
   * Applies a check to the domain as it is now, under its row lock, with the event it calls for in the
   * same transaction. Answers null when the domain is gone, or, for a background check (`claim`), when
   * the claim is no longer ours (a client's verify or a later claim came in between).
   */
  async saveCheck(
    organizationId: string,
    id: string,
    decide: (current: CheckedDomain) => CheckOutcome,
    claim?: Date,
  ): Promise<DomainEntity | null> {
    return this.db.transaction(async (tx) => {
      const current = await this.findOne(organizationId, id, tx, true);
      if (!current) return null;
      if (claim && current.nextCheckAt?.getTime() !== claim.getTime()) return null;
      const { state, event } = decide(current);
      const updated = await this.writeCheck(tx, current, state);
      if (event) await DOMAINS_OUTBOX.write(tx, [domainEvent(event, updated)]);
      return updated;
    });
  }

  /** Addresses go with the domain (ON DELETE CASCADE); `domain.deleted` commits with the deletion. */
  async delete(organizationId: string, id: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const current = await this.findOne(organizationId, id, tx, true);
      if (!current) return false;
      await tx.query(`DELETE FROM ${DOMAINS_TABLE} WHERE organization_id = $1 AND id = $2`, [organizationId, id]);
      await DOMAINS_OUTBOX.write(tx, [domainEvent('domain.deleted', current)]);
      return true;
    });
  }

  private async writeCheck(tx: Sql, domain: DomainEntity, state: CheckResultState): Promise<DomainEntity> {
    const { rows } = await tx.query<DomainEntity>(
      `UPDATE ${DOMAINS_TABLE} SET status = $3, verified_at = $4, dns_configured = $5, mx_verified = $6, spf_verified = $7,
         dkim_verified = $8, issues = $9, checked_at = $10, next_check_at = $11, updated_at = now()
       WHERE id = $1 AND organization_id = $2 RETURNING ${COLUMNS}`,
      [
        domain.id,
        domain.organizationId,
        state.status,
        state.verifiedAt,
        state.dnsConfigured,
        state.mxVerified,
        state.spfVerified,
        state.dkimVerified,
        JSON.stringify(state.issues),
        state.checkedAt,
        state.nextCheckAt,
      ],
    );
    return rows[0];
  }
}
