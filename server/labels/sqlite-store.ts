import type { Database } from 'bun:sqlite'
import { settled } from '../db/settled.ts'
import type { LabelColor } from './model.ts'
import type { Carrier, LabelRow, LabelStore } from './store.ts'

const COLUMNS = 'l.id, l.workspace_id, l.name, l.name_key, l.color, l.created_at, l.updated_at'

export function sqliteLabelStore(db: Database): LabelStore {
  const list = db.query<LabelRow, [string]>(`SELECT ${COLUMNS} FROM labels l WHERE l.workspace_id = ? ORDER BY l.name_key, l.id`)
  const get = db.query<LabelRow, [string, string]>(`SELECT ${COLUMNS} FROM labels l WHERE l.workspace_id = ? AND l.id = ?`)
  const byNameKeys = db.query<LabelRow, [string, string]>(
    `SELECT ${COLUMNS} FROM labels l WHERE l.workspace_id = ? AND l.name_key IN (SELECT value FROM json_each(?)) ORDER BY l.name_key`,
  )
  const insert = db.query<{ id: string }, Record<string, string | null>>(
    `INSERT INTO labels (id, workspace_id, name, name_key, color, created_at, updated_at)
     VALUES ($id, $workspace_id, $name, $name_key, $color, $created_at, $updated_at) ON CONFLICT DO NOTHING RETURNING id`,
  )
  const nameTaken = db.query<{ id: string }, [string, string, string]>('SELECT id FROM labels WHERE workspace_id = ? AND name_key = ? AND id <> ?')
  const update = db.query<null, [string, string, LabelColor, string, string, string]>(
    'UPDATE labels SET name = ?, name_key = ?, color = ?, updated_at = ? WHERE workspace_id = ? AND id = ?',
  )
  const remove = db.query<{ id: string }, [string, string]>('DELETE FROM labels WHERE workspace_id = ? AND id = ? RETURNING id')
  const conversationInWorkspace = db.query<{ id: string }, [string, string]>(
    'SELECT c.id FROM conversations c JOIN chatbots b ON b.id = c.chatbot_id WHERE c.id = ? AND b.workspace_id = ?',
  )
  const contactInWorkspace = db.query<{ id: string }, [string, string]>(
    'SELECT c.id FROM contacts c JOIN chatbots b ON b.id = c.chatbot_id WHERE c.id = ? AND b.workspace_id = ?',
  )
  const conversationLabels = db.query<LabelRow, [string, string]>(
    `SELECT ${COLUMNS} FROM conversation_labels x JOIN labels l ON l.id = x.label_id WHERE x.conversation_id = ? AND l.workspace_id = ? ORDER BY l.name_key`,
  )
  const contactLabels = db.query<LabelRow, [string, string]>(
    `SELECT ${COLUMNS} FROM contact_labels x JOIN labels l ON l.id = x.label_id WHERE x.contact_id = ? AND l.workspace_id = ? ORDER BY l.name_key`,
  )
  const attachConversation = db.query<null, [string, string, string]>(
    'INSERT INTO conversation_labels (conversation_id, label_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
  )
  const attachContact = db.query<null, [string, string, string]>('INSERT INTO contact_labels (contact_id, label_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING')
  const detachConversation = db.query<{ label_id: string }, [string, string]>(
    'DELETE FROM conversation_labels WHERE conversation_id = ? AND label_id = ? RETURNING label_id',
  )
  const detachContact = db.query<{ label_id: string }, [string, string]>('DELETE FROM contact_labels WHERE contact_id = ? AND label_id = ? RETURNING label_id')
  const nameKeys = db.query<{ name_key: string }, [string]>(
    'SELECT l.name_key FROM conversation_labels x JOIN labels l ON l.id = x.label_id WHERE x.conversation_id = ? ORDER BY l.name_key',
  )

  const chatbotWorkspace = db.query<{ workspace_id: string }, [string]>('SELECT workspace_id FROM chatbots WHERE id = ?')

  return {
    chatbotWorkspace: (chatbotId) => settled(() => chatbotWorkspace.get(chatbotId)?.workspace_id),
    list: (workspaceId) => settled(() => list.all(workspaceId)),
    get: (workspaceId, id) => settled(() => get.get(workspaceId, id) ?? undefined),
    byNameKeys: (workspaceId, keys) => settled(() => (keys.length === 0 ? [] : byNameKeys.all(workspaceId, JSON.stringify(keys)))),
    insert: (row) => settled(() => insert.all({ ...row }).length > 0),
    update: (workspaceId, id, change) =>
      settled(() => {
        if (nameTaken.get(workspaceId, change.name_key, id)) return false
        update.run(change.name, change.name_key, change.color, change.updated_at, workspaceId, id)
        return true
      }),
    remove: (workspaceId, id) => settled(() => remove.all(workspaceId, id).length > 0),
    carrierInWorkspace: (workspaceId, carrier) =>
      settled(() => (carrier.kind === 'conversation' ? conversationInWorkspace : contactInWorkspace).get(carrier.id, workspaceId) !== null),
    carried: (workspaceId, carrier) => settled(() => (carrier.kind === 'conversation' ? conversationLabels : contactLabels).all(carrier.id, workspaceId)),
    attach: (carrier: Carrier, labelId, at) => settled(() => void (carrier.kind === 'conversation' ? attachConversation : attachContact).run(carrier.id, labelId, at)),
    detach: (carrier, labelId) => settled(() => (carrier.kind === 'conversation' ? detachConversation : detachContact).all(carrier.id, labelId).length > 0),
    conversationNameKeys: (conversationId) => settled(() => nameKeys.all(conversationId).map((row) => row.name_key)),
  }
}
