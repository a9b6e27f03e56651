import { Column, CreateDateColumn, Entity, Index, PrimaryGeneratedColumn } from 'typeorm';

@Entity({ name: 'api_keys' })
export class ApiKey {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('uuid', { name: 'organization_id' })
  organizationId: string;

  /** SHA-256 of the key; the key itself is never stored. */
  @Index({ unique: true })
  @Column('bytea', { name: 'key_hash' })
  keyHash: Buffer;

  /** The first characters of the key, so an operator can tell keys apart. */
  @Column('text', { name: 'key_prefix' })
  keyPrefix: string;

  @Column('text', { array: true })
  scopes: string[];

  @Column('timestamptz', { name: 'revoked_at', nullable: true })
  revokedAt: Date | null;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;
}
