import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn } from 'typeorm';

@Entity({ name: 'email_addresses' })
export class EmailAddressEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid', { name: 'organization_id' })
  organizationId: string;

  @Column('uuid', { name: 'domain_id' })
  domainId: string;

  @Column('text', { name: 'local_part' })
  localPart: string;

  @Column('text')
  address: string;

  @Column('boolean', { name: 'is_primary' })
  isPrimary: boolean;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
