import { RowCache } from '../db/row-cache.ts'
import type { Units } from '../db/units.ts'
import { ApiError, notFound } from '../http/api-error.ts'
import type { Page, PageOf } from '../http/common-model.ts'
import type { Clock } from '../support/clock.ts'
import type { EventBus } from '../events/domain-events.ts'
import { newId } from '../support/new-id.ts'
import type { McpKind } from './mcp-integration.ts'
import type { CreateMcpIntegration, McpIntegration, UpdateMcpIntegration } from './mcp-model.ts'
import type { IntegrationRow } from './model.ts'
import type { IntegrationStore } from './store.ts'

type IntegrationStores = { integrations: IntegrationStore }

export interface McpIntegrationsDeps {
  stores: IntegrationStores
  units: Units<IntegrationStores>
  now: Clock
  events: EventBus
  kind: McpKind
  requireChatbot: (workspaceId: string, chatbotId: string) => Promise<void>
}

export type McpIntegrations = ReturnType<typeof mcpIntegrations>

const nameTaken = (name: string) =>
  new ApiError(409, 'name_taken', `this chatbot already has an mcp integration named "${name}" (names ignore case)`, [
    { path: '/name', message: 'is already the name of another mcp integration of this chatbot' },
  ])

/** Rows kept for tool calls; beyond this many, the least recently read is dropped. */
const CACHED_ROWS = 1000

/** The mcp integrations of a chatbot: many per chatbot, each addressed by its id. */
export function mcpIntegrations({ stores, units, now, events, kind, requireChatbot }: McpIntegrationsDeps) {
  const store = stores.integrations
  /**
   * Rows read by id; a hit counts only under the workspace and chatbot it belongs to (neither
   * ever changes). Every tool call reads its integration, and the scoped read (a join to check
   * the workspace, then the chatbot) was a tenth of Parley's time per call. A row leaves the
   * cache whenever it could change: an update or delete here, and the events of the generic
   * routes; a chatbot's deletion (rare) empties it. The events run once the change is
   * committed; a read under way when one comes is not kept (it may have read the row as it was).
   */
  const cached = new RowCache<IntegrationRow>(CACHED_ROWS)
  /** Counts the times kept rows were forgotten: a read that began before the last one is not kept. */
  let forgotten = 0
  const forget = (integrationId: string | null) => {
    forgotten++
    if (integrationId === null) cached.clear()
    else cached.delete(integrationId)
  }
  events.on('integration.changed', ({ integrationId }) => forget(integrationId))
  events.on('integration.removed', ({ integrationId }) => forget(integrationId))
  events.on('chatbot.removed', () => forget(null))

  /** The row, scoped to the workspace and chatbot, or 404 (also for an integration of another type). */
  async function row(workspaceId: string, chatbotId: string, id: string): Promise<IntegrationRow> {
    const hit = cached.get(id)
    if (hit && hit.workspace_id === workspaceId && hit.chatbot_id === chatbotId) return hit
    const since = forgotten
    await requireChatbot(workspaceId, chatbotId)
    const found = await store.get(workspaceId, chatbotId, id)
    if (!found || found.type !== 'mcp') throw notFound('mcp integration')
    if (since === forgotten) cached.set(id, found)
    return found
  }

  return {
    row,

    /** The mcp row with this id, in any workspace: only for the OAuth callback, which the state scopes. */
    async rowById(id: string): Promise<IntegrationRow | null> {
      const found = await store.getById(id)
      return found?.type === 'mcp' ? found : null
    },

    async create(workspaceId: string, chatbotId: string, input: CreateMcpIntegration): Promise<McpIntegration> {
      await requireChatbot(workspaceId, chatbotId)
      // Decided before the value rules, as integration_exists is for the typed kinds.
      if (await store.mcpNamed(chatbotId, input.name)) throw nameTaken(input.name)
      const settings = kind.create(input)
      const created: IntegrationRow = {
        id: newId(),
        chatbot_id: chatbotId,
        workspace_id: workspaceId,
        type: 'mcp',
        ...settings,
        created_at: now(),
        updated_at: null,
      }
      const result = await units.unit((tx) => tx.integrations.insert(created))
      if (result === 'name_taken') throw nameTaken(input.name)
      if (result !== 'inserted') throw new Error(`mcp insert refused: ${result}`)
      return kind.render(created)
    },

    async list(workspaceId: string, chatbotId: string, page: Page): Promise<PageOf<McpIntegration>> {
      await requireChatbot(workspaceId, chatbotId)
      const { items, total } = await store.listOfType(workspaceId, chatbotId, 'mcp', page)
      return { items: await Promise.all(items.map(kind.render)), total }
    },

    get: async (workspaceId: string, chatbotId: string, id: string): Promise<McpIntegration> => kind.render(await row(workspaceId, chatbotId, id)),

    async update(workspaceId: string, chatbotId: string, id: string, input: UpdateMcpIntegration): Promise<McpIntegration> {
      const current = await row(workspaceId, chatbotId, id)
      if (input.name !== undefined) {
        const holder = await store.mcpNamed(chatbotId, input.name)
        if (holder && holder !== id) throw nameTaken(input.name)
      }
      const settings = kind.update(
        { name: input.name ?? current.name, is_active: input.is_active ?? current.is_active, config: current.config, secrets: current.secrets, public_key: null },
        input,
      )
      const next: IntegrationRow = { ...current, ...settings }
      if (JSON.stringify([current.name, current.is_active, current.config, current.secrets]) === JSON.stringify([next.name, next.is_active, next.config, next.secrets])) {
        return kind.render(current)
      }
      next.updated_at = now()
      forget(id)
      if ((await units.unit((tx) => tx.integrations.update(next))) === 'name_taken') throw nameTaken(next.name)
      events.emit('integration.changed', { workspaceId, chatbotId, integrationId: id, type: 'mcp', isActive: next.is_active })
      return kind.render(next)
    },

    async remove(workspaceId: string, chatbotId: string, id: string): Promise<void> {
      await row(workspaceId, chatbotId, id)
      forget(id)
      if (!(await units.unit((tx) => tx.integrations.remove(workspaceId, chatbotId, id)))) throw notFound('mcp integration')
      events.emit('integration.removed', { workspaceId, chatbotId, integrationId: id, type: 'mcp' })
    },

  }
}
