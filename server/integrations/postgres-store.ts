import type { SQL } from 'bun'
import type { IntegrationListItem, IntegrationRow } from './model.ts'
import { type IntegrationStore, parsedIntegration, type StoredIntegration, storedColumns } from './store.ts'

const SELECT = `SELECT i.id, i.chatbot_id, c.workspace_id, i.type, i.name, i.is_active, i.config, i.secrets,
  i.public_key, i.created_at, i.updated_at FROM integrations i JOIN chatbots c ON c.id = i.chatbot_id`

export function postgresIntegrationStore(sql: SQL): IntegrationStore {
  const rows = async (query: Promise<StoredIntegration[]>) => [...(await query)].map((row) => parsedIntegration(row) as IntegrationRow)
  const one = async (query: Promise<StoredIntegration[]>) => parsedIntegration((await query)[0])
  // Every read joins the chatbot, whose workspace scopes it; the same text each time, so `unsafe` with parameters.
  const select = (where: string, ...values: unknown[]) => sql.unsafe<StoredIntegration[]>(`${SELECT} ${where}`, values)
  const count = async (query: Promise<{ n: number }[]>) => (await query)[0]?.n ?? 0

  /** Whether another mcp integration of the chatbot has this name, ignoring case. */
  async function mcpNameTaken(chatbotId: string, name: string, except: string | null): Promise<boolean> {
    const [row] = await sql<{ taken: boolean }[]>`SELECT EXISTS (SELECT 1 FROM integrations WHERE chatbot_id = ${chatbotId} AND type = 'mcp'
      AND lower(name) = lower(${name}) AND id IS DISTINCT FROM ${except}) AS taken`
    return row?.taken === true
  }

  return {
    async insert(row) {
      const columns = storedColumns(row)
      // ON CONFLICT DO NOTHING: a violation would abort the unit's transaction; which index refused is asked after.
      const inserted = await sql`
        INSERT INTO integrations (id, chatbot_id, type, name, is_active, config, secrets, public_key, created_at, updated_at)
        VALUES (${row.id}, ${row.chatbot_id}, ${row.type}, ${columns.name}, ${columns.is_active}, ${columns.config}, ${columns.secrets},
          ${columns.public_key}, ${row.created_at}, ${columns.updated_at})
        ON CONFLICT DO NOTHING RETURNING id`
      if (inserted.length > 0) return 'inserted'
      if (row.type === 'mcp' && (await mcpNameTaken(row.chatbot_id, row.name, null))) return 'name_taken'
      if (row.public_key !== null) {
        const [taken] = await sql<{ id: string }[]>`SELECT id FROM integrations WHERE public_key = ${row.public_key}`
        if (taken) return 'public_key_taken'
      }
      return 'type_exists'
    },
    async mcpNamed(chatbotId, name) {
      const [row] = await sql<{ id: string }[]>`SELECT id FROM integrations WHERE chatbot_id = ${chatbotId} AND type = 'mcp' AND lower(name) = lower(${name})`
      return row?.id ?? null
    },
    async listOfType(workspaceId, chatbotId, type, page) {
      const [items, total] = await Promise.all([
        rows(select('WHERE i.chatbot_id = $1 AND c.workspace_id = $2 AND i.type = $3 ORDER BY i.created_at COLLATE "C" DESC, i.id COLLATE "C" DESC LIMIT $4 OFFSET $5',
          chatbotId, workspaceId, type, page.limit, page.offset)),
        count(sql<{ n: number }[]>`SELECT count(*)::int AS n FROM integrations i JOIN chatbots c ON c.id = i.chatbot_id
          WHERE i.chatbot_id = ${chatbotId} AND c.workspace_id = ${workspaceId} AND i.type = ${type}`),
      ])
      return { items, total }
    },
    async hasType(chatbotId, type) {
      const found = await sql`SELECT id FROM integrations WHERE chatbot_id = ${chatbotId} AND type = ${type} AND type <> 'mcp'`
      return found.length > 0
    },
    get: (workspaceId, chatbotId, id) => one(select('WHERE i.id = $1 AND i.chatbot_id = $2 AND c.workspace_id = $3', id, chatbotId, workspaceId)),
    getTyped: (workspaceId, chatbotId, type) => one(select('WHERE i.type = $1 AND i.chatbot_id = $2 AND c.workspace_id = $3', type, chatbotId, workspaceId)),
    getById: (id) => one(select('WHERE i.id = $1', id)),
    getByPublicKey: (publicKey) => one(select('WHERE i.public_key = $1', publicKey)),
    getOfChatbot: (chatbotId, type) => one(select('WHERE i.chatbot_id = $1 AND i.type = $2', chatbotId, type)),
    async list(workspaceId, chatbotId, filter) {
      const type = filter.type ?? null
      const [items, total] = await Promise.all([
        sql<(Omit<IntegrationListItem, 'is_active'> & { is_active: number })[]>`
          SELECT i.id, i.chatbot_id, i.type, i.is_active, i.created_at FROM integrations i JOIN chatbots c ON c.id = i.chatbot_id
          WHERE i.chatbot_id = ${chatbotId} AND c.workspace_id = ${workspaceId} AND (${type}::text IS NULL OR i.type = ${type})
          ORDER BY i.created_at COLLATE "C" DESC, i.id COLLATE "C" DESC LIMIT ${filter.limit} OFFSET ${filter.offset}`,
        count(sql<{ n: number }[]>`SELECT count(*)::int AS n FROM integrations i JOIN chatbots c ON c.id = i.chatbot_id
          WHERE i.chatbot_id = ${chatbotId} AND c.workspace_id = ${workspaceId} AND (${type}::text IS NULL OR i.type = ${type})`),
      ])
      return { items: [...items].map((item) => ({ ...item, is_active: item.is_active === 1 })), total }
    },
    async update(row) {
      const columns = storedColumns(row)
      // An mcp name another integration of the chatbot holds is refused before the write: a violation would abort the unit.
      if (row.type === 'mcp' && (await mcpNameTaken(row.chatbot_id, row.name, row.id))) return 'name_taken'
      await sql`UPDATE integrations SET name = ${columns.name}, is_active = ${columns.is_active}, config = ${columns.config},
        secrets = ${columns.secrets}, public_key = ${columns.public_key}, updated_at = ${columns.updated_at} WHERE id = ${row.id}`
      return 'updated'
    },
    async remove(workspaceId, chatbotId, id) {
      const removed = await sql`DELETE FROM integrations WHERE id = ${id} AND chatbot_id = ${chatbotId}
        AND chatbot_id IN (SELECT id FROM chatbots WHERE workspace_id = ${workspaceId}) RETURNING id`
      return removed.length > 0
    },
    idsOfType: async (chatbotId, type) =>
      [...(await sql<{ id: string }[]>`SELECT id FROM integrations WHERE chatbot_id = ${chatbotId} AND type = ${type} ORDER BY created_at COLLATE "C", id COLLATE "C"`)].map(
        (row) => row.id,
      ),
    async setChatappHandshake(id, handshake) {
      // Only the handshake member of the config changes: no read-modify-write, and updated_at stays the admin's.
      // Cast from text: a string bound as jsonb itself would be stored as a JSON string.
      const updated = await sql`UPDATE integrations SET config = jsonb_set(config::jsonb, '{handshake}', ${JSON.stringify(handshake)}::text::jsonb)::text
        WHERE id = ${id} AND type = 'chatapp' RETURNING id`
      return updated.length > 0
    },
  }
}
