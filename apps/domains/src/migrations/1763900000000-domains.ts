import { MigrationInterface, QueryRunner } from 'typeorm';

export class Domains1763900000000 implements MigrationInterface {
  name = 'Domains1763900000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE TABLE domains.domains (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id uuid NOT NULL,
      domain text NOT NULL,
      status text NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'active', 'failed')),
      type text NOT NULL DEFAULT 'imported',
      dkim_selector_1 text NOT NULL,
      dkim_selector_2 text NOT NULL CHECK (dkim_selector_2 <> dkim_selector_1),
      dns_configured boolean NOT NULL DEFAULT false,
      mx_verified boolean NOT NULL DEFAULT false,
      spf_verified boolean NOT NULL DEFAULT false,
      dkim_verified boolean NOT NULL DEFAULT false,
      verified_at timestamptz,
      checked_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    // A hostname belongs to one organization at most, whoever connected it first.
    await db.query('CREATE UNIQUE INDEX domains_domain_key ON domains.domains (domain)');
    await db.query('CREATE INDEX domains_organization_created_idx ON domains.domains (organization_id, created_at, id)');
    await db.query(`CREATE TABLE domains.email_addresses (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id uuid NOT NULL,
      domain_id uuid NOT NULL REFERENCES domains.domains(id) ON DELETE CASCADE,
      local_part text NOT NULL CHECK (char_length(local_part) BETWEEN 1 AND 64),
      address text NOT NULL,
      is_primary boolean NOT NULL DEFAULT false,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    await db.query('CREATE UNIQUE INDEX email_addresses_address_key ON domains.email_addresses (address)');
    await db.query('CREATE UNIQUE INDEX email_addresses_one_primary_idx ON domains.email_addresses (domain_id) WHERE is_primary');
    await db.query('CREATE INDEX email_addresses_domain_created_idx ON domains.email_addresses (domain_id, created_at, id)');
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE domains.email_addresses, domains.domains');
  }
}
