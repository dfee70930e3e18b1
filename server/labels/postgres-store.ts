import type { SQL } from 'bun'
import type { LabelRow, LabelStore } from './store.ts'

/**
 * The same SQL as the SQLite side: names sorted in byte order (COLLATE "C"); a name already
 * taken is answered (ON CONFLICT DO NOTHING, a check before a rename), never a failed statement
 * that would abort the unit's transaction.
 */
export function postgresLabelStore(sql: SQL): LabelStore {
  const rows = async (query: Promise<LabelRow[]>) => [...(await query)]
  return {
    chatbotWorkspace: async (chatbotId) => (await sql<{ workspace_id: string }[]>`SELECT workspace_id FROM chatbots WHERE id = ${chatbotId}`)[0]?.workspace_id,
    list: (workspaceId) =>
      rows(sql`SELECT id, workspace_id, name, name_key, color, created_at, updated_at FROM labels
        WHERE workspace_id = ${workspaceId} ORDER BY name_key COLLATE "C", id COLLATE "C"`),
    get: async (workspaceId, id) =>
      (await sql<LabelRow[]>`SELECT id, workspace_id, name, name_key, color, created_at, updated_at FROM labels
        WHERE workspace_id = ${workspaceId} AND id = ${id}`)[0],
    byNameKeys: async (workspaceId, keys) =>
      keys.length === 0
        ? []
        : rows(sql`SELECT id, workspace_id, name, name_key, color, created_at, updated_at FROM labels
            WHERE workspace_id = ${workspaceId} AND name_key IN (SELECT jsonb_array_elements_text(${JSON.stringify(keys)}::text::jsonb))
            ORDER BY name_key COLLATE "C"`),
    async insert(r) {
      const inserted = await sql`INSERT INTO labels (id, workspace_id, name, name_key, color, created_at, updated_at)
        VALUES (${r.id}, ${r.workspace_id}, ${r.name}, ${r.name_key}, ${r.color}, ${r.created_at}, ${r.updated_at})
        ON CONFLICT DO NOTHING RETURNING id`
      return inserted.length > 0
    },
    async update(workspaceId, id, change) {
      const taken = await sql`SELECT id FROM labels WHERE workspace_id = ${workspaceId} AND name_key = ${change.name_key} AND id <> ${id}`
      if (taken.length > 0) return false
      await sql`UPDATE labels SET name = ${change.name}, name_key = ${change.name_key}, color = ${change.color}, updated_at = ${change.updated_at}
        WHERE workspace_id = ${workspaceId} AND id = ${id}`
      return true
    },
    async remove(workspaceId, id) {
      const gone = await sql`DELETE FROM labels WHERE workspace_id = ${workspaceId} AND id = ${id} RETURNING id`
      return gone.length > 0
    },
    async carrierInWorkspace(workspaceId, carrier) {
      const found =
        carrier.kind === 'conversation'
          ? await sql`SELECT c.id FROM conversations c JOIN chatbots b ON b.id = c.chatbot_id WHERE c.id = ${carrier.id} AND b.workspace_id = ${workspaceId}`
          : await sql`SELECT c.id FROM contacts c JOIN chatbots b ON b.id = c.chatbot_id WHERE c.id = ${carrier.id} AND b.workspace_id = ${workspaceId}`
      return found.length > 0
    },
    carried: (workspaceId, carrier) =>
      carrier.kind === 'conversation'
        ? rows(sql`SELECT l.id, l.workspace_id, l.name, l.name_key, l.color, l.created_at, l.updated_at
            FROM conversation_labels x JOIN labels l ON l.id = x.label_id
            WHERE x.conversation_id = ${carrier.id} AND l.workspace_id = ${workspaceId} ORDER BY l.name_key COLLATE "C"`)
        : rows(sql`SELECT l.id, l.workspace_id, l.name, l.name_key, l.color, l.created_at, l.updated_at
            FROM contact_labels x JOIN labels l ON l.id = x.label_id
            WHERE x.contact_id = ${carrier.id} AND l.workspace_id = ${workspaceId} ORDER BY l.name_key COLLATE "C"`),
    async attach(carrier, labelId, at) {
      if (carrier.kind === 'conversation') {
        await sql`INSERT INTO conversation_labels (conversation_id, label_id, created_at) VALUES (${carrier.id}, ${labelId}, ${at}) ON CONFLICT DO NOTHING`
      } else {
        await sql`INSERT INTO contact_labels (contact_id, label_id, created_at) VALUES (${carrier.id}, ${labelId}, ${at}) ON CONFLICT DO NOTHING`
      }
    },
    async detach(carrier, labelId) {
      const gone =
        carrier.kind === 'conversation'
          ? await sql`DELETE FROM conversation_labels WHERE conversation_id = ${carrier.id} AND label_id = ${labelId} RETURNING label_id`
          : await sql`DELETE FROM contact_labels WHERE contact_id = ${carrier.id} AND label_id = ${labelId} RETURNING label_id`
      return gone.length > 0
    },
    conversationNameKeys: async (conversationId) =>
      (await sql<{ name_key: string }[]>`SELECT l.name_key FROM conversation_labels x JOIN labels l ON l.id = x.label_id
        WHERE x.conversation_id = ${conversationId} ORDER BY l.name_key COLLATE "C"`).map((row) => row.name_key),
  }
}
