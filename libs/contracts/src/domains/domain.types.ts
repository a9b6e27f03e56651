import { ApiProperty, ApiPropertyOptional, PickType } from '@nestjs/swagger';

export const DOMAIN_STATUSES = ['pending', 'active', 'failed'] as const;
export type DomainStatus = (typeof DOMAIN_STATUSES)[number];

const STATUS = { enum: DOMAIN_STATUSES, enumName: 'DomainStatus' } as const;

/** A record the domain's owner configures at their DNS provider. */
export class DnsRecord {
  @ApiProperty({ enum: ['MX', 'TXT', 'CNAME'] })
  type!: 'MX' | 'TXT' | 'CNAME';

  @ApiProperty({ example: 'mail.example.com', description: 'fully qualified record name' })
  name!: string;

  @ApiProperty({ example: 'mx.mail.example.net' })
  value!: string;

  @ApiPropertyOptional({ type: 'integer', example: 10, description: 'MX only' })
  priority?: number;
}

export class DomainView {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ example: 'mail.example.com' })
  domain!: string;

  @ApiProperty(STATUS)
  status!: DomainStatus;

  @ApiProperty({ enum: ['imported'] })
  type!: string;

  @ApiProperty({ description: 'true once any required record is seen' })
  dns_configured!: boolean;

  @ApiProperty()
  mx_verified!: boolean;

  @ApiProperty()
  spf_verified!: boolean;

  @ApiProperty()
  dkim_verified!: boolean;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  verified_at!: string | null;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true, description: 'when DNS was last looked at, by a verify or the background re-check; null before the first' })
  last_checked_at!: string | null;

  @ApiProperty({ type: [String], description: 'what the latest check found wrong, and a DMARC recommendation that never blocks `active`; [] before the first check' })
  issues!: string[];

  @ApiPropertyOptional({ type: [DnsRecord], description: 'in the answers to POST /domains and GET /domains/{domain_id}' })
  dns_records?: DnsRecord[];
}

/** The answer to `GET /domains/{domain_id}/verify`: the domain's status and checks as its view has them, and their verdict. */
export class DomainVerification extends PickType(DomainView, [
  'id',
  'domain',
  'status',
  'dns_configured',
  'mx_verified',
  'spf_verified',
  'dkim_verified',
  'verified_at',
] as const) {
  @ApiProperty()
  all_verified!: boolean;

  @ApiPropertyOptional({ type: [String], description: 'present when something is unverified: what is wrong and what to do, in plain words' })
  issues?: string[];
}

export class EmailAddressView {
  @ApiProperty({ format: 'uuid' })
  id!: string;

  @ApiProperty({ format: 'email', example: 'support@mail.example.com' })
  address!: string;

  @ApiProperty()
  is_primary!: boolean;

  @ApiProperty({ format: 'date-time' })
  created_at!: string;
}
