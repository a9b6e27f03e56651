import type { KeyScope, MemberEventData, OrgContext } from '@contracts';
import { AppError } from '@platform/errors';
import { buildEvent, writeToOutbox } from '@platform/persistence';
import { DataSource, EntityManager, IsNull } from 'typeorm';
import { hashApiKey, issueApiKey } from './api-key-secret';
import { ApiKey } from './entities/api-key.entity';
import { Member, MemberStatus } from './entities/member.entity';
import { Organization } from './entities/organization.entity';
import { IDENTITY_SCHEMA } from './identity-schema';

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

function orgView(org: Organization): OrganizationView {
  return { id: org.id, name: org.name, plan: org.plan, addons: [...org.addons].sort() };
}

function memberView(member: Member): MemberView {
  return { id: member.id, organization_id: member.organizationId, email: member.email, role: member.role, status: member.status };
}

/** Organizations, API keys and members: the operations the admin tool performs and the gateway reads. */
export class IdentityStore {
  constructor(private readonly db: DataSource) {}

  async authenticate(key: string): Promise<AuthenticatedKey | undefined> {
    const [row] = await this.db.query(
      `SELECT k.id AS key_id, k.scopes, o.id AS org_id, o.plan, o.addons
         FROM gateway.api_keys k JOIN gateway.organizations o ON o.id = k.organization_id
        WHERE k.key_hash = $1 AND k.revoked_at IS NULL`,
      [hashApiKey(key)],
    );
    if (!row) return undefined;
    return { keyId: row.key_id, scopes: row.scopes, org: { id: row.org_id, plan: row.plan, addons: row.addons } };
  }

  async countOrganizations(): Promise<number> {
    return this.db.getRepository(Organization).count();
  }

  async createOrganization(input: { name: string; plan: number; addons: string[] }): Promise<OrganizationView> {
    const repo = this.db.getRepository(Organization);
    const org = await repo.save(repo.create({ name: input.name, plan: input.plan, addons: [...new Set(input.addons)] }));
    return orgView(org);
  }

  async updateOrganization(id: string, change: { plan?: number; add?: string[]; remove?: string[] }): Promise<OrganizationView> {
    return this.db.transaction(async (tx) => {
      const org = await this.lockOrganization(tx, id);
      if (change.plan !== undefined) org.plan = change.plan;
      const addons = new Set(org.addons);
      change.add?.forEach((addon) => addons.add(addon));
      change.remove?.forEach((addon) => addons.delete(addon));
      org.addons = [...addons];
      return orgView(await tx.getRepository(Organization).save(org));
    });
  }

  async createKey(organizationId: string, scopes: KeyScope[]): Promise<{ id: string; key: string; scopes: string[]; organization_id: string }> {
    await this.requireOrganization(this.db.manager, organizationId);
    const issued = issueApiKey();
    const repo = this.db.getRepository(ApiKey);
    const saved = await repo.save(repo.create({ organizationId, keyHash: issued.hash, keyPrefix: issued.prefix, scopes, revokedAt: null }));
    return { id: saved.id, key: issued.key, scopes: saved.scopes, organization_id: organizationId };
  }

  async revokeKey(keyId: string): Promise<{ id: string; revoked_at: string }> {
    const repo = this.db.getRepository(ApiKey);
    const key = await repo.findOne({ where: { id: keyId } });
    if (!key) throw AppError.notFound('API key');
    if (!key.revokedAt) {
      await repo.update({ id: keyId, revokedAt: IsNull() }, { revokedAt: new Date() });
    }
    const revoked = await repo.findOneOrFail({ where: { id: keyId } });
    return { id: keyId, revoked_at: (revoked.revokedAt as Date).toISOString() };
  }

  async inviteMember(organizationId: string, email: string, role: string): Promise<MemberView> {
    return this.db.transaction(async (tx) => {
      await this.requireOrganization(tx, organizationId);
      const repo = tx.getRepository(Member);
      const existing = await repo
        .createQueryBuilder('m')
        .where('m.organization_id = :organizationId AND lower(m.email) = lower(:email) AND m.status <> :removed', { organizationId, email, removed: 'removed' })
        .getOne();
      if (existing) throw AppError.conflict(`${email} is already a member or invited`);
      const member = await repo.save(repo.create({ organizationId, email, role, status: 'invited' }));
      await this.emit(tx, member);
      return memberView(member);
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
      const repo = tx.getRepository(Member);
      const member = await repo.findOne({ where: { id: memberId }, lock: { mode: 'pessimistic_write' } });
      if (!member) throw AppError.notFound('Member');
      if (!allowed(member.status)) throw AppError.badRequest(`Member is ${member.status}; cannot become ${next}`);
      member.status = next;
      const saved = await repo.save(member);
      await this.emit(tx, saved);
      return memberView(saved);
    });
  }

  private async emit(tx: EntityManager, member: Member): Promise<void> {
    const data: MemberEventData = { member_id: member.id, email: member.email, role: member.role };
    await writeToOutbox(tx, IDENTITY_SCHEMA, [buildEvent(member.organizationId, MEMBER_EVENT[member.status], data)]);
  }

  private async requireOrganization(manager: EntityManager, id: string): Promise<Organization> {
    const org = await manager.getRepository(Organization).findOne({ where: { id } });
    if (!org) throw AppError.notFound('Organization');
    return org;
  }

  private async lockOrganization(manager: EntityManager, id: string): Promise<Organization> {
    const org = await manager.getRepository(Organization).findOne({ where: { id }, lock: { mode: 'pessimistic_write' } });
    if (!org) throw AppError.notFound('Organization');
    return org;
  }
}
