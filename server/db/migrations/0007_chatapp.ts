import type { Migration } from '../migration.ts'

export const chatapp: Migration = {
  id: 7,
  name: 'chatapp',
  up(db) {
    db.exec(`
      -- The outbox carries more than one kind of delivery: Standard Webhooks POSTs (webhook)
      -- and calls to the messaging provider's API (chatapp). Each worker takes its own kind.
      ALTER TABLE outbox ADD COLUMN kind TEXT NOT NULL DEFAULT 'webhook';
      -- The receiver's id for what it accepted (the provider's message id, wamid...), when it gives one.
      ALTER TABLE outbox ADD COLUMN receipt TEXT;
      -- How the receiver took a delivered one, when that is worth telling (a fallback it needed).
      ALTER TABLE outbox ADD COLUMN note TEXT;
      DROP INDEX outbox_due;
      CREATE INDEX outbox_due ON outbox (kind, next_attempt_at, seq) WHERE status = 'pending' AND next_attempt_at IS NOT NULL;
      CREATE INDEX outbox_by_receipt ON outbox (receipt) WHERE receipt IS NOT NULL;

      -- Which Parley message each provider message (an outbox delivery) carries: one message
      -- may need several (a long text in pieces, a caption after an audio), and how its
      -- content was adapted to the provider's limits.
      CREATE TABLE chatapp_sends (
        delivery_id TEXT PRIMARY KEY,
        chatbot_id TEXT NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
        integration_id TEXT NOT NULL,
        conversation_id TEXT NOT NULL,
        message_id TEXT NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
        part INTEGER NOT NULL,
        adaptation TEXT,
        created_at TEXT NOT NULL
      );
      CREATE INDEX chatapp_sends_by_message ON chatapp_sends (message_id, part);

      -- What the provider delivered to Parley, once per provider message id (wamid): the
      -- idempotency key of its retried webhooks, and the payload agents can read.
      CREATE TABLE chatapp_inbound (
        integration_id TEXT NOT NULL,
        wamid TEXT NOT NULL,
        chatbot_id TEXT NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
        conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
        message_id TEXT NOT NULL REFERENCES messages(id) ON DELETE CASCADE,
        type TEXT NOT NULL,
        sender TEXT NOT NULL,
        profile_name TEXT,
        payload TEXT NOT NULL,
        form_response TEXT,
        sent_at TEXT,
        received_at TEXT NOT NULL,
        PRIMARY KEY (integration_id, wamid)
      );
      CREATE INDEX chatapp_inbound_by_integration ON chatapp_inbound (integration_id, received_at DESC);
      CREATE INDEX chatapp_inbound_by_conversation ON chatapp_inbound (conversation_id, received_at);

      -- The provider's reports on the messages Parley sent (sent, delivered, read, played,
      -- failed), once each; matched to deliveries by the receipt when read, so a report that
      -- overtakes the API's answer is not lost.
      CREATE TABLE chatapp_statuses (
        integration_id TEXT NOT NULL,
        wamid TEXT NOT NULL,
        status TEXT NOT NULL,
        chatbot_id TEXT NOT NULL REFERENCES chatbots(id) ON DELETE CASCADE,
        at TEXT NOT NULL,
        errors TEXT,
        received_at TEXT NOT NULL,
        PRIMARY KEY (integration_id, wamid, status)
      );
    `)
  },
}
