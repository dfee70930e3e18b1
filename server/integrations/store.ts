import type { Page, PageOf } from '../http/common-model.ts'
import type { IntegrationListFilter, IntegrationListItem, IntegrationRow, IntegrationType, JsonObject } from './model.ts'

export type InsertResult = 'inserted' | 'type_exists' | 'public_key_taken' | 'name_taken'
export type UpdateResult = 'updated' | 'name_taken'

/**
 * The only code that reads or writes integrations (docs/architecture.md, "The store seam").
 * Every read joins the chatbot so that the workspace scopes it, whatever the caller checked.
 * What the unique indexes forbid (one typed integration per chatbot, a widget key, an mcp name
 * per chatbot whatever its case) is answered, never thrown: on PostgreSQL a thrown violation
 * would abort the unit's transaction.
 */
export interface IntegrationStore {
  insert(row: IntegrationRow): Promise<InsertResult>
  /** The id of the chatbot's mcp integration with this name (ignoring case), if any. */
  mcpNamed(chatbotId: string, name: string): Promise<string | null>
  /** One page of a chatbot's integrations of one type, whole rows, newest first. */
  listOfType(workspaceId: string, chatbotId: string, type: IntegrationType, page: Page): Promise<PageOf<IntegrationRow>>
  hasType(chatbotId: string, type: IntegrationType): Promise<boolean>
  get(workspaceId: string, chatbotId: string, id: string): Promise<IntegrationRow | null>
  getTyped(workspaceId: string, chatbotId: string, type: IntegrationType): Promise<IntegrationRow | null>
  /** Unscoped: for channels that arrive with an integration id and no API key (provider webhooks). */
  getById(id: string): Promise<IntegrationRow | null>
  getByPublicKey(publicKey: string): Promise<IntegrationRow | null>
  /** The chatbot's integration of a one-per-chatbot type, whatever its workspace (for internal lookups). */
  getOfChatbot(chatbotId: string, type: IntegrationType): Promise<IntegrationRow | null>
  list(workspaceId: string, chatbotId: string, filter: IntegrationListFilter): Promise<PageOf<IntegrationListItem>>
  update(row: IntegrationRow): Promise<UpdateResult>
  remove(workspaceId: string, chatbotId: string, id: string): Promise<boolean>
  /** A chatbot's integrations of a type, oldest first. */
  idsOfType(chatbotId: string, type: IntegrationType): Promise<string[]>
  /** Records the messaging provider's last successful verify handshake (config.handshake of a chatapp integration). */
  setChatappHandshake(id: string, handshake: JsonObject): Promise<boolean>
}

/** A row as both databases keep it: the flag as 0/1, JSON as text. */
export type StoredIntegration = Omit<IntegrationRow, 'is_active' | 'config' | 'secrets'> & { is_active: number; config: string; secrets: string }

/** The columns an insert or an update writes. */
export function storedColumns(row: IntegrationRow) {
  return {
    id: row.id,
    name: row.name,
    is_active: row.is_active ? 1 : 0,
    config: JSON.stringify(row.config),
    secrets: JSON.stringify(row.secrets),
    public_key: row.public_key,
    updated_at: row.updated_at,
  }
}

export function parsedIntegration(row: StoredIntegration | null | undefined): IntegrationRow | null {
  if (!row) return null
  return {
    ...row,
    is_active: row.is_active === 1,
    config: JSON.parse(row.config) as JsonObject,
    secrets: JSON.parse(row.secrets) as JsonObject,
  }
}
