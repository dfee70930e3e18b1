import type { Database } from 'bun:sqlite'
import { settled } from '../db/settled.ts'
import type { IntegrationListItem, IntegrationRow } from './model.ts'
import { type IntegrationStore, parsedIntegration, type StoredIntegration, storedColumns } from './store.ts'

const SELECT = `SELECT i.id, i.chatbot_id, c.workspace_id, i.type, i.name, i.is_active, i.config, i.secrets,
  i.public_key, i.created_at, i.updated_at FROM integrations i JOIN chatbots c ON c.id = i.chatbot_id`

export function sqliteIntegrationStore(db: Database): IntegrationStore {
  const insert = db.query(
    `INSERT INTO integrations (id, chatbot_id, type, name, is_active, config, secrets, public_key, created_at, updated_at)
     VALUES ($id, $chatbot_id, $type, $name, $is_active, $config, $secrets, $public_key, $created_at, $updated_at)`,
  )
  const selectOne = db.query<StoredIntegration, [string, string, string]>(`${SELECT} WHERE i.id = ? AND i.chatbot_id = ? AND c.workspace_id = ?`)
  const selectTyped = db.query<StoredIntegration, [string, string, string]>(`${SELECT} WHERE i.type = ? AND i.chatbot_id = ? AND c.workspace_id = ?`)
  const selectById = db.query<StoredIntegration, [string]>(`${SELECT} WHERE i.id = ?`)
  const selectByPublicKey = db.query<StoredIntegration, [string]>(`${SELECT} WHERE i.public_key = ?`)
  const selectOfChatbot = db.query<StoredIntegration, [string, string]>(`${SELECT} WHERE i.chatbot_id = ? AND i.type = ?`)
  const typeExists = db.query<{ id: string }, [string, string]>("SELECT id FROM integrations WHERE chatbot_id = ? AND type = ? AND type != 'mcp'")
  const selectPage = db.query<Omit<IntegrationListItem, 'is_active'> & { is_active: number }, [string, string, string | null, number, number]>(
    `SELECT i.id, i.chatbot_id, i.type, i.is_active, i.created_at FROM integrations i JOIN chatbots c ON c.id = i.chatbot_id
     WHERE i.chatbot_id = ?1 AND c.workspace_id = ?2 AND (?3 IS NULL OR i.type = ?3) ORDER BY i.created_at DESC, i.id DESC LIMIT ?4 OFFSET ?5`,
  )
  const count = db.query<{ n: number }, [string, string, string | null]>(
    `SELECT count(*) AS n FROM integrations i JOIN chatbots c ON c.id = i.chatbot_id
     WHERE i.chatbot_id = ?1 AND c.workspace_id = ?2 AND (?3 IS NULL OR i.type = ?3)`,
  )
  const update = db.query(
    `UPDATE integrations SET name = $name, is_active = $is_active, config = $config, secrets = $secrets,
     public_key = $public_key, updated_at = $updated_at WHERE id = $id`,
  )
  const remove = db.query<{ id: string }, [string, string, string]>(
    `DELETE FROM integrations WHERE id = ? AND chatbot_id = ?
     AND chatbot_id IN (SELECT id FROM chatbots WHERE workspace_id = ?) RETURNING id`,
  )
  const selectPageOfType = db.query<StoredIntegration, [string, string, string, number, number]>(
    `${SELECT} WHERE i.chatbot_id = ? AND c.workspace_id = ? AND i.type = ? ORDER BY i.created_at DESC, i.id DESC LIMIT ? OFFSET ?`,
  )
  const countOfType = db.query<{ n: number }, [string, string, string]>(
    `SELECT count(*) AS n FROM integrations i JOIN chatbots c ON c.id = i.chatbot_id WHERE i.chatbot_id = ? AND c.workspace_id = ? AND i.type = ?`,
  )
  const mcpNamed = db.query<{ id: string }, [string, string]>("SELECT id FROM integrations WHERE chatbot_id = ? AND type = 'mcp' AND lower(name) = lower(?)")
  // Only the handshake member of the config changes: no read-modify-write, and updated_at stays the admin's.
  const setHandshake = db.query<{ id: string }, [string, string]>(
    "UPDATE integrations SET config = json_set(config, '$.handshake', json(?)) WHERE id = ? AND type = 'chatapp' RETURNING id",
  )
  const idsOfType = db.query<{ id: string }, [string, string]>('SELECT id FROM integrations WHERE chatbot_id = ? AND type = ? ORDER BY created_at, id')

  return {
    insert: (row) =>
      settled(() => {
        try {
          insert.run({ ...storedColumns(row), chatbot_id: row.chatbot_id, type: row.type, created_at: row.created_at })
          return 'inserted'
        } catch (error) {
          // A failed statement leaves SQLite's transaction (the open batch) as it was.
          const message = uniqueViolation(error)
          if (message.includes('integrations_mcp_name')) return 'name_taken'
          return message.includes('public_key') ? 'public_key_taken' : 'type_exists'
        }
      }),
    mcpNamed: (chatbotId, name) => settled(() => mcpNamed.get(chatbotId, name)?.id ?? null),
    listOfType: (workspaceId, chatbotId, type, page) =>
      settled(() => ({
        items: selectPageOfType.all(chatbotId, workspaceId, type, page.limit, page.offset).map((row) => parsedIntegration(row) as IntegrationRow),
        total: countOfType.get(chatbotId, workspaceId, type)?.n ?? 0,
      })),
    hasType: (chatbotId, type) => settled(() => typeExists.get(chatbotId, type) !== null),
    get: (workspaceId, chatbotId, id) => settled(() => parsedIntegration(selectOne.get(id, chatbotId, workspaceId))),
    getTyped: (workspaceId, chatbotId, type) => settled(() => parsedIntegration(selectTyped.get(type, chatbotId, workspaceId))),
    getById: (id) => settled(() => parsedIntegration(selectById.get(id))),
    getByPublicKey: (publicKey) => settled(() => parsedIntegration(selectByPublicKey.get(publicKey))),
    getOfChatbot: (chatbotId, type) => settled(() => parsedIntegration(selectOfChatbot.get(chatbotId, type))),
    list: (workspaceId, chatbotId, filter) =>
      settled(() => {
        const type = filter.type ?? null
        return {
          items: selectPage.all(chatbotId, workspaceId, type, filter.limit, filter.offset).map((item) => ({ ...item, is_active: item.is_active === 1 })),
          total: count.get(chatbotId, workspaceId, type)?.n ?? 0,
        }
      }),
    update: (row) =>
      settled(() => {
        try {
          update.run(storedColumns(row))
          return 'updated'
        } catch (error) {
          if (uniqueViolation(error).includes('integrations_mcp_name')) return 'name_taken'
          throw error
        }
      }),
    remove: (workspaceId, chatbotId, id) => settled(() => remove.get(id, chatbotId, workspaceId) !== null),
    idsOfType: (chatbotId, type) => settled(() => idsOfType.all(chatbotId, type).map((row) => row.id)),
    setChatappHandshake: (id, handshake) => settled(() => setHandshake.get(JSON.stringify(handshake), id) !== null),
  }
}

/** The message of a unique-index violation; any other error is thrown on. */
function uniqueViolation(error: unknown): string {
  const message = String((error as Error).message)
  if (!message.includes('UNIQUE constraint failed')) throw error
  return message
}
