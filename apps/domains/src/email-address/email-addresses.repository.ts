import { Injectable } from '@nestjs/common';
import { Database, Sql } from '@platform/persistence';
import { EMAIL_ADDRESSES_TABLE } from '../domains-schema';
import type { EmailAddressEntity } from './email-address.entity';

const COLUMNS = `id, organization_id AS "organizationId", domain_id AS "domainId", local_part AS "localPart", address,
  is_primary AS "isPrimary", created_at AS "createdAt"`;

/** Addresses of one organization's domains; every query names the organization. */
@Injectable()
export class EmailAddressesRepository {
  constructor(private readonly db: Database) {}

  async page(organizationId: string, domainId: string, offset: number, limit: number): Promise<[EmailAddressEntity[], number]> {
    const [{ rows }, { rows: [count] }] = await Promise.all([
      this.db.query<EmailAddressEntity>(
        `SELECT ${COLUMNS} FROM ${EMAIL_ADDRESSES_TABLE} WHERE organization_id = $1 AND domain_id = $2
         ORDER BY created_at, id LIMIT $3 OFFSET $4`,
        [organizationId, domainId, limit, offset],
      ),
      this.db.query<{ total: number }>(
        `SELECT count(*)::int AS total FROM ${EMAIL_ADDRESSES_TABLE} WHERE organization_id = $1 AND domain_id = $2`,
        [organizationId, domainId],
      ),
    ]);
    return [rows, count.total];
  }

  /** The domain's current primary address stops being primary. */
  async clearPrimary(tx: Sql, domainId: string): Promise<void> {
    await tx.query(`UPDATE ${EMAIL_ADDRESSES_TABLE} SET is_primary = false WHERE domain_id = $1 AND is_primary`, [domainId]);
  }

  async insert(tx: Sql, address: Omit<EmailAddressEntity, 'id' | 'createdAt'>): Promise<EmailAddressEntity> {
    const { rows } = await tx.query<EmailAddressEntity>(
      `INSERT INTO ${EMAIL_ADDRESSES_TABLE} (organization_id, domain_id, local_part, address, is_primary)
       VALUES ($1, $2, $3, $4, $5) RETURNING ${COLUMNS}`,
      [address.organizationId, address.domainId, address.localPart, address.address, address.isPrimary],
    );
    return rows[0];
  }
}
