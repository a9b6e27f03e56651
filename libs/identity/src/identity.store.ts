import type { KeyScope, MemberEventData, OrgContext } from '@contracts';
import { AppError } from '@platform/errors';
import { buildEvent, Database, Sql } from '@platform/persistence';
import { hashApiKey, issueApiKey } from './api-key-secret';
import { API_KEYS_TABLE, IDENTITY_OUTBOX, MEMBERS_TABLE, ORGANIZATIONS_TABLE } from './identity-schema';

export const MEMBER_STATUSES = ['invited', 'joined', 'removed'] as const;
export type MemberStatus = (typeof MEMBER_STATUSES)[number];

export interface AuthenticatedKey {
  keyId: string;
  scopes: string[];
  org: OrgContext;
}

export interface OrganizationView {
  id: string;
  name: string;
  plan: number;
  addons: string[];
}

/** An organization as an operator lists it. */
export interface OrganizationListing extends OrganizationView {
  created_at: string;
  active_keys: number;
}

/** A key as an operator lists it: never its secret, only the prefix that identifies it. */
export interface KeyListing {
  id: string;
  organization_id: string;
  prefix: string;
  scopes: string[];
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface MemberView {
  id: string;
  organization_id: string;
  email: string;
  role: string;
  status: MemberStatus;
}

const MEMBER_EVENT: Record<MemberStatus, string> = {
  invited: 'member.invited',
  joined: 'member.joined',
  removed: 'member.removed',
};

const ORGANIZATION_COLUMNS = 'id, name, plan, addons';
const MEMBER_COLUMNS = 'id, organization_id, email, role, status';

function orgView(org: OrganizationView): OrganizationView {
  return { id: org.id, name: org.name, plan: org.plan, addons: [...org.addons].sort() };
}

/** Organizations, API keys and members: the operations the admin tool performs and the gateway reads. */
export class IdentityStore {
  constructor(private readonly db: Database) {}

  /**
   * The key's organization and scopes, noting that it was used. Gateways cache the answer
   * (API_KEY_CACHE_TTL_MS), so `last_used_at` is written once per key and cache period, not per request.
   */
  async authenticate(key: string): Promise<AuthenticatedKey | undefined> {
    const {
      rows: [row],
    } = await this.db.query<{ key_id: string; scopes: string[]; org_id: string; plan: number; addons: string[] }>(
      `UPDATE ${API_KEYS_TABLE} k SET last_used_at = now()
         FROM ${ORGANIZATIONS_TABLE} o
        WHERE o.id = k.organization_id AND k.key_hash = $1 AND k.revoked_at IS NULL
        RETURNING k.id AS key_id, k.scopes, o.id AS org_id, o.plan, o.addons`,
      [hashApiKey(key)],
    );
    if (!row) return undefined;
    return { keyId: row.key_id, scopes: row.scopes, org: { id: row.org_id, plan: row.plan, addons: row.addons } };
  }

  async countOrganizations(): Promise<number> {
    const { rows } = await this.db.query<{ total: number }>(`SELECT count(*)::int AS total FROM ${ORGANIZATIONS_TABLE}`);
    return rows[0].total;
  }

  async listOrganizations(): Promise<OrganizationListing[]> {
    const { rows } = await this.db.query<OrganizationView & { created_at: Date; active_keys: number }>(
      `SELECT o.id, o.name, o.plan, o.addons, o.created_at,
              (SELECT count(*)::int FROM ${API_KEYS_TABLE} k WHERE k.organization_id = o.id AND k.revoked_at IS NULL) AS active_keys
         FROM ${ORGANIZATIONS_TABLE} o ORDER BY o.created_at, o.id`,
    );
    return rows.map((row) => ({ ...orgView(row), created_at: row.created_at.toISOString(), active_keys: row.active_keys }));
  }

  /** Every key, or one organization's, oldest first; revoked ones too, marked. */
  async listKeys(organizationId?: string): Promise<KeyListing[]> {
    if (organizationId) await this.findOrganization(this.db, organizationId);
    const { rows } = await this.db.query<{ id: string; organization_id: string; key_prefix: string; scopes: string[]; created_at: Date; last_used_at: Date | null; revoked_at: Date | null }>(
      `SELECT id, organization_id, key_prefix, scopes, created_at, last_used_at, revoked_at FROM ${API_KEYS_TABLE}
        WHERE $1::uuid IS NULL OR organization_id = $1 ORDER BY created_at, id`,
      [organizationId ?? null],
    );
    return rows.map((row) => ({
      id: row.id,
      organization_id: row.organization_id,
      prefix: row.key_prefix,
      scopes: row.scopes,
      created_at: row.created_at.toISOString(),
      last_used_at: row.last_used_at?.toISOString() ?? null,
      revoked_at: row.revoked_at?.toISOString() ?? null,
    }));
  }

  async createOrganization(input: { name: string; plan: number; addons: string[] }): Promise<OrganizationView> {
    const { rows } = await this.db.query<OrganizationView>(
      `INSERT INTO ${ORGANIZATIONS_TABLE} (name, plan, addons) VALUES ($1, $2, $3) RETURNING ${ORGANIZATION_COLUMNS}`,
      [input.name, input.plan, [...new Set(input.addons)]],
    );
    return orgView(rows[0]);
  }

  async updateOrganization(id: string, change: { plan?: number; add?: string[]; remove?: string[] }): Promise<OrganizationView> {
    return this.db.transaction(async (tx) => {
      const org = await this.findOrganization(tx, id, true);
      const addons = new Set(org.addons);
      change.add?.forEach((addon) => addons.add(addon));
      change.remove?.forEach((addon) => addons.delete(addon));
      const { rows } = await tx.query<OrganizationView>(
        `UPDATE ${ORGANIZATIONS_TABLE} SET plan = $2, addons = $3, updated_at = now() WHERE id = $1 RETURNING ${ORGANIZATION_COLUMNS}`,
        [id, change.plan ?? org.plan, [...addons]],
      );
      return orgView(rows[0]);
    });
  }

  async createKey(organizationId: string, scopes: KeyScope[]): Promise<{ id: string; key: string; scopes: string[]; organization_id: string }> {
    await this.findOrganization(this.db, organizationId);
    const issued = issueApiKey();
    const { rows } = await this.db.query<{ id: string; scopes: string[] }>(
      `INSERT INTO ${API_KEYS_TABLE} (organization_id, key_hash, key_prefix, scopes) VALUES ($1, $2, $3, $4) RETURNING id, scopes`,
      [organizationId, issued.hash, issued.prefix, scopes],
    );
    return { id: rows[0].id, key: issued.key, scopes: rows[0].scopes, organization_id: organizationId };
  }

  /** Revoking twice answers the first revocation's time. */
  async revokeKey(keyId: string): Promise<{ id: string; revoked_at: string }> {
    const { rows } = await this.db.query<{ revoked_at: Date }>(
      `UPDATE ${API_KEYS_TABLE} SET revoked_at = COALESCE(revoked_at, now()) WHERE id = $1 RETURNING revoked_at`,
      [keyId],
    );
    if (!rows[0]) throw AppError.notFound('API key');
    return { id: keyId, revoked_at: rows[0].revoked_at.toISOString() };
  }

  async inviteMember(organizationId: string, email: string, role: string): Promise<MemberView> {
    return this.db.transaction(async (tx) => {
      await this.findOrganization(tx, organizationId);
      const { rowCount } = await tx.query(
        `SELECT 1 FROM ${MEMBERS_TABLE} WHERE organization_id = $1 AND lower(email) = lower($2) AND status <> 'removed'`,
        [organizationId, email],
      );
      if (rowCount) throw AppError.conflict(`${email} is already a member or invited`);
      const { rows } = await tx.query<MemberView>(
        `INSERT INTO ${MEMBERS_TABLE} (organization_id, email, role, status) VALUES ($1, $2, $3, 'invited') RETURNING ${MEMBER_COLUMNS}`,
        [organizationId, email, role],
      );
      await this.emit(tx, rows[0]);
      return rows[0];
    });
  }

  async joinMember(memberId: string): Promise<MemberView> {
    return this.transition(memberId, 'joined', (status) => status === 'invited');
  }

  async removeMember(memberId: string): Promise<MemberView> {
    return this.transition(memberId, 'removed', (status) => status !== 'removed');
  }

  private async transition(memberId: string, next: MemberStatus, allowed: (status: MemberStatus) => boolean): Promise<MemberView> {
    return this.db.transaction(async (tx) => {
      const {
        rows: [member],
      } = await tx.query<MemberView>(`SELECT ${MEMBER_COLUMNS} FROM ${MEMBERS_TABLE} WHERE id = $1 FOR UPDATE`, [memberId]);
      if (!member) throw AppError.notFound('Member');
      if (!allowed(member.status)) throw AppError.badRequest(`Member is ${member.status}; cannot become ${next}`);
      const { rows } = await tx.query<MemberView>(
        `UPDATE ${MEMBERS_TABLE} SET status = $2, updated_at = now() WHERE id = $1 RETURNING ${MEMBER_COLUMNS}`,
        [memberId, next],
      );
      await this.emit(tx, rows[0]);
      return rows[0];
    });
  }

  private async emit(tx: Sql, member: MemberView): Promise<void> {
    const data: MemberEventData = { member_id: member.id, email: member.email, role: member.role };
    await IDENTITY_OUTBOX.write(tx, [buildEvent(member.organization_id, MEMBER_EVENT[member.status], data)]);
  }

  private async findOrganization(db: Sql, id: string, lock = false): Promise<OrganizationView> {
    const { rows } = await db.query<OrganizationView>(
      `SELECT ${ORGANIZATION_COLUMNS} FROM ${ORGANIZATIONS_TABLE} WHERE id = $1${lock ? ' FOR UPDATE' : ''}`,
      [id],
    );
    if (!rows[0]) throw AppError.notFound('Organization');
    return rows[0];
  }
}
