import { MigrationInterface, QueryRunner } from 'typeorm';

export class Identity1763700000000 implements MigrationInterface {
  name = 'Identity1763700000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE TABLE gateway.organizations (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      name text NOT NULL,
      plan integer NOT NULL CHECK (plan >= 0),
      addons text[] NOT NULL DEFAULT '{}',
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    await db.query(`CREATE TABLE gateway.api_keys (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id uuid NOT NULL REFERENCES gateway.organizations(id) ON DELETE CASCADE,
      key_hash bytea NOT NULL UNIQUE,
      key_prefix text NOT NULL,
      scopes text[] NOT NULL,
      revoked_at timestamptz,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
    await db.query(`CREATE INDEX api_keys_organization_idx ON gateway.api_keys (organization_id)`);
    await db.query(`CREATE TABLE gateway.members (
      id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
      organization_id uuid NOT NULL REFERENCES gateway.organizations(id) ON DELETE CASCADE,
      email text NOT NULL,
      role text NOT NULL,
      status text NOT NULL CHECK (status IN ('invited', 'joined', 'removed')),
      created_at timestamptz NOT NULL DEFAULT now(),
      updated_at timestamptz NOT NULL DEFAULT now()
    )`);
    await db.query(`CREATE UNIQUE INDEX members_active_email_idx ON gateway.members (organization_id, lower(email)) WHERE status <> 'removed'`);
    await db.query(`CREATE TABLE gateway.outbox (
      seq bigserial PRIMARY KEY,
      id uuid NOT NULL UNIQUE,
      subject text NOT NULL,
      payload json NOT NULL,
      created_at timestamptz NOT NULL DEFAULT now()
    )`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query('DROP TABLE gateway.outbox, gateway.members, gateway.api_keys, gateway.organizations');
  }
}
