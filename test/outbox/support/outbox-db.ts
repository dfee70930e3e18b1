import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { migrate } from '../../../server/db/migrate.ts'
import { closeDatabase, openDatabase } from '../../../server/db/open-database.ts'
import { sqliteUnits } from '../../../server/db/sqlite-units.ts'
import { writeBatcher } from '../../../server/db/write-batcher.ts'
import { isoAt } from '../../../server/outbox/outbox-time.ts'
import { type DeliveryKind, outboxStore } from '../../../server/outbox/outbox-store.ts'
import { sqliteStores } from '../../../server/stores.ts'
import { newId } from '../../../server/support/new-id.ts'

/** A migrated database file with one chatbot, its outbox store, a write batch and the seam's units: what a worker runs on. */
export function outboxDb() {
  const dir = mkdtempSync(join(tmpdir(), 'parley-outbox-'))
  const db = openDatabase(join(dir, 'parley.db'))
  migrate(db)
  const at = new Date().toISOString()
  db.query('INSERT INTO workspaces (id, name, created_at) VALUES (?, ?, ?)').run('ws', 'Workspace', at)
  db.query('INSERT INTO chatbots (id, workspace_id, name, created_at) VALUES (?, ?, ?, ?)').run('bot', 'ws', 'Bot', at)
  const store = outboxStore(db)
  const errors: unknown[] = []
  const batch = writeBatcher(db, (error) => errors.push(error))
  const stores = sqliteStores(db)

  return {
    db,
    store,
    batch,
    /** The worker's claims behind the store seam, on this database's group commit. */
    claims: { stores, units: sqliteUnits(batch, stores) },
    errors,
    /** Puts deliveries in the outbox as a turn would, committed; answers their webhook ids. */
    enqueue(url: string, orderingKey: string, count = 1, nowMs = Date.now(), integrationId = 'int', kind: DeliveryKind = 'webhook'): string[] {
      const ids = Array.from({ length: count }, () => `evt_${newId()}`)
      batch.run(() => {
        for (const [n, id] of ids.entries()) {
          store.insert({
            id,
            kind,
            chatbot_id: 'bot',
            integration_id: integrationId,
            ordering_key: orderingKey,
            event_type: 'message.created',
            body: JSON.stringify({ key: orderingKey, n }),
            url,
            created_at: isoAt(nowMs),
          })
        }
      })
      batch.flush()
      return ids
    },
    row: (id: string) => store.getById(id),
    close() {
      batch.flush()
      closeDatabase(db)
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

export type OutboxDb = ReturnType<typeof outboxDb>
