import { MigrationInterface, QueryRunner } from 'typeorm';

/** The text of a stored message as the JSON array of its events (a message carries one event or an array). */
const EVENTS_OF_MESSAGE = `json_array_elements(CASE WHEN left(m.body, 1) = '[' THEN m.body::json ELSE json_build_array(m.body::json) END) WITH ORDINALITY AS x(value, ord)`;
const UUID = `'^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$'`;

/**
 * Events no webhook wanted when they arrived are kept a message at a time: one row holds the events a
 * message of the stream carried (up to a batch of creates), exactly as written, under the message's id.
 * Events that open a delivery series stay one row each in `events`, which the series point at. The view
 * `stored_events` reads both as one store of events, one row each (an event a recovery copied into
 * `events` is read from there only).
 */
export class EventMessages1764700000000 implements MigrationInterface {
  name = 'EventMessages1764700000000';

  async up(db: QueryRunner): Promise<void> {
    await db.query(`CREATE TABLE webhooks.event_messages (
      id uuid PRIMARY KEY,
      organization_id uuid NOT NULL,
      body text NOT NULL,
      received_at timestamptz NOT NULL DEFAULT now()
    )`);
    // A batch's message is tens of kilobytes of JSON: lz4 compresses it several times faster than the default pglz.
    await db.query(`DO $$ BEGIN ALTER TABLE webhooks.event_messages ALTER COLUMN body SET COMPRESSION lz4; EXCEPTION WHEN feature_not_supported THEN NULL; END $$`);
    await db.query(`CREATE INDEX event_messages_org_received_idx ON webhooks.event_messages (organization_id, received_at, id)`);
    await db.query(`CREATE INDEX event_messages_received_idx ON webhooks.event_messages (received_at)`);
    await db.query(`CREATE VIEW webhooks.message_events AS
      SELECT m.id AS message_id, x.ord, (x.value->>'id')::uuid AS id, m.organization_id, x.value->>'event' AS event_type,
        CASE WHEN x.value->>'event' ~ '^(row|table)\\.' AND x.value->'data'->>'table_id' ~ ${UUID} THEN lower(x.value->'data'->>'table_id')::uuid END AS table_id,
        x.value::text AS body, m.received_at
      FROM webhooks.event_messages m CROSS JOIN LATERAL ${EVENTS_OF_MESSAGE}
      WHERE x.value->>'id' ~ ${UUID}`);
    await db.query(`CREATE VIEW webhooks.stored_events AS
      SELECT id, organization_id, event_type, table_id, body, received_at FROM webhooks.events
      UNION ALL
      SELECT id, organization_id, event_type, table_id, body, received_at FROM webhooks.message_events me
      WHERE NOT EXISTS (SELECT 1 FROM webhooks.events e WHERE e.id = me.id)`);
  }

  async down(db: QueryRunner): Promise<void> {
    await db.query(`DROP VIEW webhooks.stored_events`);
    await db.query(`DROP VIEW webhooks.message_events`);
    await db.query(`DROP TABLE webhooks.event_messages`);
  }
}
