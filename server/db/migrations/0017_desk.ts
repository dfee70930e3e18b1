import type { Migration } from '../migration.ts'

/** The text of a contact the desk's search looks at: e-mail, phone and name, from the identity and the details. */
const CONTACT_SEARCH_VALUES = (row: string) => `
  trim(coalesce(json_extract(${row}.details, '$.email'), '') || ' ' || CASE WHEN instr(coalesce(${row}.external_id, ''), '@') > 0 THEN ${row}.external_id ELSE '' END),
  trim(coalesce(json_extract(${row}.details, '$.phone'), '') || ' ' || CASE WHEN ${row}.external_id LIKE '+%' THEN ${row}.external_id ELSE '' END),
  trim(coalesce(json_extract(${row}.details, '$.name'), '') || ' ' || coalesce(json_extract(${row}.details, '$.first_name'), '') || ' ' || coalesce(json_extract(${row}.details, '$.last_name'), ''))`

export const desk: Migration = {
  id: 17,
  name: 'desk',
  up(db) {
    db.exec(`
      -- The desk's view of each conversation, workspace-wide: what its lists filter and sort on.
      -- Kept by triggers on conversations, so the conversation service writes nothing more per
      -- turn: a row changes only when its conversation opens, changes status or is assigned.
      -- The lists sort on values that do not change per chat turn (the conversation number,
      -- the handoff time): an index on last activity would be rewritten by every message
      -- (migration 10 removed one for that reason).
      CREATE TABLE desk_threads (
        seq INTEGER PRIMARY KEY,
        conversation_id TEXT NOT NULL UNIQUE REFERENCES conversations(id) ON DELETE CASCADE,
        workspace_id TEXT NOT NULL,
        chatbot_id TEXT NOT NULL,
        channel TEXT NOT NULL,
        status TEXT NOT NULL,
        is_open INTEGER NOT NULL,
        handoff_at TEXT,
        assignee_id TEXT REFERENCES users(id) ON DELETE SET NULL,
        assigned_at TEXT
      );
      CREATE INDEX desk_threads_by_status ON desk_threads (workspace_id, status, seq);
      CREATE INDEX desk_threads_open ON desk_threads (workspace_id, is_open, seq);
      CREATE INDEX desk_threads_waiting ON desk_threads (workspace_id, handoff_at, seq) WHERE status = 'handoff';
      CREATE INDEX desk_threads_by_assignee ON desk_threads (assignee_id, is_open, seq) WHERE assignee_id IS NOT NULL;
      CREATE INDEX desk_threads_by_chatbot ON desk_threads (chatbot_id, status, seq);
      CREATE INDEX desk_threads_by_chatbot_open ON desk_threads (chatbot_id, is_open, seq);

      INSERT INTO desk_threads (seq, conversation_id, workspace_id, chatbot_id, channel, status, is_open, handoff_at)
        SELECT c.seq, c.id, b.workspace_id, c.chatbot_id, c.channel, c.status, c.status <> 'closed',
               CASE WHEN c.status = 'handoff' THEN coalesce(c.updated_at, c.last_message_at) END
        FROM conversations c JOIN chatbots b ON b.id = c.chatbot_id;

      CREATE TRIGGER desk_threads_opened AFTER INSERT ON conversations BEGIN
        INSERT INTO desk_threads (seq, conversation_id, workspace_id, chatbot_id, channel, status, is_open, handoff_at)
          SELECT new.seq, new.id, b.workspace_id, new.chatbot_id, new.channel, new.status, new.status <> 'closed',
                 CASE WHEN new.status = 'handoff' THEN new.created_at END
          FROM chatbots b WHERE b.id = new.chatbot_id;
      END;

      -- The timeline's events: handed off (at which state, with the flow's variables), taken
      -- over, handed back, closed, assigned. Status changes are recorded here by the trigger,
      -- in the same transaction as the change; the desk adds who did it when a person did.
      CREATE TABLE desk_events (
        id INTEGER PRIMARY KEY,
        conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
        kind TEXT NOT NULL,
        at TEXT NOT NULL,
        actor_id TEXT,
        actor_name TEXT,
        data TEXT NOT NULL DEFAULT '{}'
      );
      CREATE INDEX desk_events_by_conversation ON desk_events (conversation_id, id);

      CREATE TRIGGER desk_threads_status AFTER UPDATE OF status ON conversations WHEN new.status IS NOT old.status BEGIN
        UPDATE desk_threads SET status = new.status, is_open = new.status <> 'closed',
          handoff_at = CASE WHEN new.status = 'handoff' THEN coalesce(new.updated_at, new.last_message_at) END
          WHERE seq = new.seq;
        INSERT INTO desk_events (conversation_id, kind, at, data) VALUES (
          new.id,
          CASE new.status WHEN 'handoff' THEN 'handed_off' WHEN 'bot' THEN 'handed_back' ELSE 'closed' END,
          coalesce(new.updated_at, new.last_message_at),
          json_object('from', old.status, 'flow_id', new.flow_id, 'flow_version', new.flow_version,
                      'state', json_extract(new.state, '$.state'), 'variables', json(coalesce(json_extract(new.state, '$.variables'), '{}'))));
      END;

      -- Private notes: a table of their own, so no path that reads or announces messages can
      -- carry one to a visitor, a webhook or the messaging app.
      CREATE TABLE desk_notes (
        id TEXT PRIMARY KEY,
        conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
        author_id TEXT,
        author_name TEXT,
        text TEXT NOT NULL,
        created_at TEXT NOT NULL
      );
      CREATE INDEX desk_notes_by_conversation ON desk_notes (conversation_id, id);

      -- What each person has read, per conversation: the newest message id they saw.
      CREATE TABLE desk_reads (
        user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
        conversation_id TEXT NOT NULL REFERENCES conversations(id) ON DELETE CASCADE,
        message_id TEXT NOT NULL,
        PRIMARY KEY (user_id, conversation_id)
      ) WITHOUT ROWID;

      CREATE TABLE desk_saved_replies (
        id TEXT PRIMARY KEY,
        workspace_id TEXT NOT NULL REFERENCES workspaces(id) ON DELETE CASCADE,
        shortcut TEXT NOT NULL,
        text TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT
      );
      CREATE UNIQUE INDEX desk_saved_replies_by_shortcut ON desk_saved_replies (workspace_id, shortcut COLLATE NOCASE);

      -- The desk socket's events, numbered per workspace, so that a desk that reconnects (after
      -- a restart too) gets what it missed. Only the newest are kept (server/desk/feed.ts).
      CREATE TABLE desk_feed (
        workspace_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        event TEXT NOT NULL,
        PRIMARY KEY (workspace_id, seq)
      ) WITHOUT ROWID;

      -- The page and browser a widget visitor was last seen on (the desk's context panel).
      CREATE TABLE desk_web_visitors (
        contact_id TEXT PRIMARY KEY REFERENCES contacts(id) ON DELETE CASCADE,
        page_url TEXT,
        user_agent TEXT,
        seen_at TEXT NOT NULL
      ) WITHOUT ROWID;

      -- When each contact detail was last set: the details themselves are one JSON object.
      CREATE TABLE desk_contact_detail_times (
        contact_id TEXT NOT NULL REFERENCES contacts(id) ON DELETE CASCADE,
        key TEXT NOT NULL,
        set_at TEXT NOT NULL,
        PRIMARY KEY (contact_id, key)
      ) WITHOUT ROWID;
      INSERT INTO desk_contact_detail_times (contact_id, key, set_at)
        SELECT c.id, d.key, coalesce(c.updated_at, c.created_at) FROM contacts c, json_each(c.details) d;
      CREATE TRIGGER desk_contact_detail_times_set AFTER UPDATE OF details ON contacts BEGIN
        INSERT INTO desk_contact_detail_times (contact_id, key, set_at)
          SELECT new.id, n.key, coalesce(new.updated_at, new.created_at) FROM json_each(new.details) n
          WHERE NOT EXISTS (SELECT 1 FROM json_each(old.details) o WHERE o.key = n.key AND o.type = n.type AND o.atom IS n.atom)
          ON CONFLICT (contact_id, key) DO UPDATE SET set_at = excluded.set_at;
      END;

      -- Search (FTS5). Contacts by trigram (any part of an e-mail or a phone number matches),
      -- kept in step by triggers in the writes' own transactions: contacts change rarely.
      -- Messages by word prefix, indexed after the commit in batches (server/desk/message-indexer.ts):
      -- a trigger made every chat turn pay for the index (bench:writes 0.38 -> 0.70). Both are
      -- contentless (the text lives in its table) and keyed by the rows' rowid.
      CREATE VIRTUAL TABLE desk_contact_search USING fts5(email, phone, name, content='', contentless_delete=1, tokenize='trigram');
      INSERT INTO desk_contact_search (rowid, email, phone, name) SELECT c.rowid, ${CONTACT_SEARCH_VALUES('c')} FROM contacts c;
      CREATE TRIGGER desk_contact_search_insert AFTER INSERT ON contacts BEGIN
        INSERT INTO desk_contact_search (rowid, email, phone, name) VALUES (new.rowid, ${CONTACT_SEARCH_VALUES('new')});
      END;
      CREATE TRIGGER desk_contact_search_update AFTER UPDATE OF details, external_id ON contacts BEGIN
        DELETE FROM desk_contact_search WHERE rowid = old.rowid;
        INSERT INTO desk_contact_search (rowid, email, phone, name) VALUES (new.rowid, ${CONTACT_SEARCH_VALUES('new')});
      END;
      CREATE TRIGGER desk_contact_search_delete AFTER DELETE ON contacts BEGIN
        DELETE FROM desk_contact_search WHERE rowid = old.rowid;
      END;

      CREATE VIRTUAL TABLE desk_message_search USING fts5(text, content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 2');
      -- The last message rowid the indexer has looked at: it indexes what comes after, which
      -- includes what was stored before this migration and whatever a crash left unindexed.
      CREATE TABLE desk_message_search_cursor (id INTEGER PRIMARY KEY CHECK (id = 1), last_rowid INTEGER NOT NULL);
      INSERT INTO desk_message_search_cursor (id, last_rowid) VALUES (1, 0);
      CREATE TRIGGER desk_message_search_delete AFTER DELETE ON messages BEGIN
        DELETE FROM desk_message_search WHERE rowid = old.rowid;
        -- messages has no INTEGER PRIMARY KEY: once its newest rows are gone, SQLite hands their
        -- rowids out again, and the cursor must not already be past them.
        UPDATE desk_message_search_cursor SET last_rowid = coalesce((SELECT max(rowid) FROM messages), 0)
          WHERE last_rowid >= old.rowid AND last_rowid > coalesce((SELECT max(rowid) FROM messages), 0);
      END;
    `)
  },
}
