import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn } from 'typeorm';
import type { DomainStatus } from '@contracts';

@Entity({ name: 'domains' })
export class DomainEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid', { name: 'organization_id' })
  organizationId: string;

  @Column('text')
  domain: string;

  @Column('text')
  status: DomainStatus;

  @Column('text')
  type: string;

  @Column('text', { name: 'dkim_selector_1' })
  dkimSelector1: string;

  @Column('text', { name: 'dkim_selector_2' })
  dkimSelector2: string;

  @Column('boolean', { name: 'dns_configured' })
  dnsConfigured: boolean;

  @Column('boolean', { name: 'mx_verified' })
  mxVerified: boolean;

  @Column('boolean', { name: 'spf_verified' })
  spfVerified: boolean;

  @Column('boolean', { name: 'dkim_verified' })
  dkimVerified: boolean;

  @Column('timestamptz', { name: 'verified_at', nullable: true })
  verifiedAt: Date | null;

  @Column('timestamptz', { name: 'checked_at', nullable: true })
  checkedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}
