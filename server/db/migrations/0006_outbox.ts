import type { Migration } from '../migration.ts'

export const outbox: Migration = {
  id: 6,
  name: 'outbox',
  up(db) {
    db.exec(`
      -- Deliveries to send (webhooks), written in the same transaction as what they announce,
      -- so that a stored message is never lost for its receiver nor announced without being stored.
      CREATE TABLE outbox (
        -- Delivery order: deliveries that share an ordering_key leave one at a time, by seq.
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        -- The webhook-id: the same on every attempt, so that receivers can drop repeats.
        id TEXT NOT NULL UNIQUE,
        chatbot_id TEXT NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
        -- No foreign key on purpose: a deleted integration's deliveries stay, failed, with the reason.
        integration_id TEXT NOT NULL,
        ordering_key TEXT NOT NULL,
        event_type TEXT NOT NULL,
        body TEXT NOT NULL,
        -- Where the latest attempt went (the integration's webhook_url at that time).
        url TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
        attempts INTEGER NOT NULL DEFAULT 0,
        -- Set on the oldest pending delivery of each ordering_key only; the others wait (NULL).
        next_attempt_at TEXT,
        last_attempt_at TEXT,
        last_status_code INTEGER,
        last_error TEXT,
        created_at TEXT NOT NULL,
        finished_at TEXT
      );
      CREATE INDEX outbox_due ON outbox (next_attempt_at, seq) WHERE status = 'pending' AND next_attempt_at IS NOT NULL;
      CREATE INDEX outbox_pending_by_key ON outbox (ordering_key, seq) WHERE status = 'pending';
      CREATE INDEX outbox_by_integration ON outbox (integration_id, seq DESC);
      CREATE INDEX outbox_finished ON outbox (finished_at) WHERE status != 'pending';
    `)
  },
}
