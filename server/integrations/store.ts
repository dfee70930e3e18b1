import type { Database } from 'bun:sqlite'
import type { Page, PageOf } from '../http/common-model.ts'
import type { IntegrationListFilter, IntegrationListItem, IntegrationRow, IntegrationType, JsonObject } from './model.ts'

type StoredRow = Omit<IntegrationRow, 'is_active' | 'config' | 'secrets'> & { is_active: number; config: string; secrets: string }

export type InsertResult = 'inserted' | 'type_exists' | 'public_key_taken' | 'name_taken'
export type UpdateResult = 'updated' | 'name_taken'

// Every read joins the chatbot so that the workspace scopes it, whatever the caller checked.
const SELECT = `SELECT i.id, i.chatbot_id, c.workspace_id, i.type, i.name, i.is_active, i.config, i.secrets,
  i.public_key, i.created_at, i.updated_at FROM integrations i JOIN chatbots c ON c.id = i.chatbot_id`

export type IntegrationStore = ReturnType<typeof integrationStore>

export function integrationStore(db: Database) {
  const insert = db.query(
    `INSERT INTO integrations (id, chatbot_id, type, name, is_active, config, secrets, public_key, created_at, updated_at)
     VALUES ($id, $chatbot_id, $type, $name, $is_active, $config, $secrets, $public_key, $created_at, $updated_at)`,
  )
  const selectOne = db.query<StoredRow, [string, string, string]>(
    `${SELECT} WHERE i.id = ? AND i.chatbot_id = ? AND c.workspace_id = ?`,
  )
  const selectTyped = db.query<StoredRow, [string, string, string]>(
    `${SELECT} WHERE i.type = ? AND i.chatbot_id = ? AND c.workspace_id = ?`,
  )
  const selectById = db.query<StoredRow, [string]>(`${SELECT} WHERE i.id = ?`)
  const selectByPublicKey = db.query<StoredRow, [string]>(`${SELECT} WHERE i.public_key = ?`)
  const selectOfChatbot = db.query<StoredRow, [string, string]>(`${SELECT} WHERE i.chatbot_id = ? AND i.type = ?`)
  const typeExists = db.query<{ id: string }, [string, string]>(
    "SELECT id FROM integrations WHERE chatbot_id = ? AND type = ? AND type != 'mcp'",
  )
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
  const selectPageOfType = db.query<StoredRow, [string, string, string, number, number]>(
    `${SELECT} WHERE i.chatbot_id = ? AND c.workspace_id = ? AND i.type = ? ORDER BY i.created_at DESC, i.id DESC LIMIT ? OFFSET ?`,
  )
  const countOfType = db.query<{ n: number }, [string, string, string]>(
    `SELECT count(*) AS n FROM integrations i JOIN chatbots c ON c.id = i.chatbot_id WHERE i.chatbot_id = ? AND c.workspace_id = ? AND i.type = ?`,
  )
  const mcpNamed = db.query<{ id: string }, [string, string]>(
    "SELECT id FROM integrations WHERE chatbot_id = ? AND type = 'mcp' AND lower(name) = lower(?)",
  )
  const activeOfType = db.query<StoredRow, [string]>(`${SELECT} WHERE i.type = ? AND i.is_active = 1`)
  // Only the handshake member of the config changes: no read-modify-write, and updated_at stays the admin's.
  const setHandshake = db.query<{ id: string }, [string, string]>(
    "UPDATE integrations SET config = json_set(config, '$.handshake', json(?)) WHERE id = ? AND type = 'chatapp' RETURNING id",
  )
  const idsOfType = db.query<{ id: string }, [string, string]>(
    'SELECT id FROM integrations WHERE chatbot_id = ? AND type = ? ORDER BY created_at, id',
  )

  const columns = (row: IntegrationRow) => ({
    id: row.id,
    name: row.name,
    is_active: row.is_active ? 1 : 0,
    config: JSON.stringify(row.config),
    secrets: JSON.stringify(row.secrets),
    public_key: row.public_key,
    updated_at: row.updated_at,
  })

  return {
    /** Refuses, rather than throws, what the unique indexes forbid. */
    insert(row: IntegrationRow): InsertResult {
      try {
        insert.run({ ...columns(row), chatbot_id: row.chatbot_id, type: row.type, created_at: row.created_at })
        return 'inserted'
      } catch (error) {
        const message = uniqueViolation(error)
        if (message.includes('integrations_mcp_name')) return 'name_taken'
        return message.includes('public_key') ? 'public_key_taken' : 'type_exists'
      }
    },
    /** The id of the chatbot's mcp integration with this name (ignoring case), if any. */
    mcpNamed: (chatbotId: string, name: string) => mcpNamed.get(chatbotId, name)?.id ?? null,
    /** One page of a chatbot's integrations of one type, whole rows, newest first. */
    listOfType(workspaceId: string, chatbotId: string, type: IntegrationType, page: Page): PageOf<IntegrationRow> {
      return {
        items: selectPageOfType.all(chatbotId, workspaceId, type, page.limit, page.offset).map((row) => parsed(row) as IntegrationRow),
        total: countOfType.get(chatbotId, workspaceId, type)?.n ?? 0,
      }
    },
    /** Every active integration of a type, whatever its workspace (for a domain's background work). */
    activeOfType: (type: IntegrationType) => activeOfType.all(type).map((row) => parsed(row) as IntegrationRow),
    hasType: (chatbotId: string, type: IntegrationType) => typeExists.get(chatbotId, type) !== null,
    get: (workspaceId: string, chatbotId: string, id: string) => parsed(selectOne.get(id, chatbotId, workspaceId)),
    getTyped: (workspaceId: string, chatbotId: string, type: IntegrationType) =>
      parsed(selectTyped.get(type, chatbotId, workspaceId)),
    /** Unscoped: for channels that arrive with an integration id and no API key (provider webhooks). */
    getById: (id: string) => parsed(selectById.get(id)),
    getByPublicKey: (publicKey: string) => parsed(selectByPublicKey.get(publicKey)),
    /** The chatbot's integration of a one-per-chatbot type, whatever its workspace (for internal lookups). */
    getOfChatbot: (chatbotId: string, type: IntegrationType) => parsed(selectOfChatbot.get(chatbotId, type)),
    list(workspaceId: string, chatbotId: string, filter: IntegrationListFilter): PageOf<IntegrationListItem> {
      const type = filter.type ?? null
      return {
        items: selectPage
          .all(chatbotId, workspaceId, type, filter.limit, filter.offset)
          .map((item) => ({ ...item, is_active: item.is_active === 1 })),
        total: count.get(chatbotId, workspaceId, type)?.n ?? 0,
      }
    },
    update(row: IntegrationRow): UpdateResult {
      try {
        update.run(columns(row))
        return 'updated'
      } catch (error) {
        if (uniqueViolation(error).includes('integrations_mcp_name')) return 'name_taken'
        throw error
      }
    },
    remove: (workspaceId: string, chatbotId: string, id: string) => remove.get(id, chatbotId, workspaceId) !== null,
    idsOfType: (chatbotId: string, type: IntegrationType) => idsOfType.all(chatbotId, type).map((row) => row.id),
    /** Records the messaging provider's last successful verify handshake (config.handshake of a chatapp integration). */
    setChatappHandshake: (id: string, handshake: JsonObject) => setHandshake.get(JSON.stringify(handshake), id) !== null,
  }
}

/** The message of a unique-index violation; any other error is thrown on. */
function uniqueViolation(error: unknown): string {
  const message = String((error as Error).message)
  if (!message.includes('UNIQUE constraint failed')) throw error
  return message
}

function parsed(row: StoredRow | null): IntegrationRow | null {
  if (!row) return null
  return {
    ...row,
    is_active: row.is_active === 1,
    config: JSON.parse(row.config) as JsonObject,
    secrets: JSON.parse(row.secrets) as JsonObject,
  }
}
