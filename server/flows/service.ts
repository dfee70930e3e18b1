import { notFound, unprocessable } from '../http/api-error.ts'
import type { Page, PageOf } from '../http/common-model.ts'
import type { Units } from '../db/units.ts'
import type { Clock } from '../support/clock.ts'
import type { EventBus } from '../events/domain-events.ts'
import { newId } from '../support/new-id.ts'
import type { CreateFlow, Flow, FlowListItem, FlowType, PublishResult, UpdateFlow, ValidationResult } from './model.ts'
import type { FlowVersion, FlowVersionList } from './version-model.ts'
import { type FlowSnapshot, toSnapshot } from './snapshots.ts'
import type { FlowRow, FlowStore } from './store.ts'
import type { ChatbotReferences } from './validate/conversation.ts'
import { validateFlow } from './validate/validate-flow.ts'
import type { ValidationReport } from './validate/validation-issue.ts'

/** Ids of a chatbot's `mcp` integrations, answered by the integrations domain. */
export type McpIntegrationIds = (chatbotId: string) => ReadonlySet<string> | Promise<ReadonlySet<string>>

type FlowStores = { flows: FlowStore }

export interface FlowServiceDeps {
  /** Reads outside a unit; writes through one (docs/architecture.md, "The store seam"). */
  stores: FlowStores
  units: Units<FlowStores>
  now: Clock
  events: EventBus
  mcpIntegrationIds: McpIntegrationIds
}

export type FlowService = ReturnType<typeof flowService>

export function flowService({ stores, units, now, events, mcpIntegrationIds }: FlowServiceDeps) {
  const store = stores.flows

  async function requireChatbot(workspaceId: string, chatbotId: string): Promise<void> {
    if (!(await store.chatbotExists(workspaceId, chatbotId))) throw notFound('chatbot')
  }

  async function requireFlow(workspaceId: string, chatbotId: string, id: string): Promise<FlowRow> {
    // Both at once: a flow is answered only for a chatbot of the workspace.
    const [owned, row] = await Promise.all([store.chatbotExists(workspaceId, chatbotId), store.get(chatbotId, id)])
    if (!owned) throw notFound('chatbot')
    if (!row) throw notFound('flow')
    return row
  }

  async function check(row: FlowRow, definition: unknown = JSON.parse(row.definition)): Promise<ValidationReport> {
    // Only a conversation flow refers to its chatbot's flows and tools: read them before the (synchronous) checks.
    let references: ChatbotReferences = { flows: new Map(), mcpIntegrationIds: new Set() }
    if (row.type === 'conversation') {
      const [summaries, mcpIds] = await Promise.all([store.summaries(row.chatbot_id), mcpIntegrationIds(row.chatbot_id)])
      references = { flows: new Map(summaries.map(({ id, type, published }) => [id, { type, published }])), mcpIntegrationIds: mcpIds }
    }
    return validateFlow(row.type, definition, () => references)
  }

  return {
    async list(workspaceId: string, chatbotId: string, page: Page): Promise<PageOf<FlowListItem>> {
      await requireChatbot(workspaceId, chatbotId)
      return store.list(chatbotId, page)
    },

    async create(workspaceId: string, chatbotId: string, input: CreateFlow): Promise<Flow> {
      const id = newId()
      const record = {
        id,
        chatbot_id: chatbotId,
        name: input.name,
        type: input.type,
        status: 'draft' as const,
        created_at: now(),
        updated_at: null,
        published_at: null,
        published_version: null,
        definition: JSON.stringify(input.flow ?? {}),
      }
      // The chatbot is looked for in the unit: one deleted meanwhile fails no statement (which on SQLite would roll back the batch).
      const created = await units.unit(async (tx) => {
        if (!(await tx.flows.chatbotExists(workspaceId, chatbotId))) return false
        await tx.flows.insert(record)
        return true
      })
      if (!created) throw notFound('chatbot')
      return toFlow({ ...record, has_unpublished_changes: 0 })
    },

    get: async (workspaceId: string, chatbotId: string, id: string): Promise<Flow> => toFlow(await requireFlow(workspaceId, chatbotId, id)),

    /** Edits the working copy; a published flow stays live on its last published version. */
    async update(workspaceId: string, chatbotId: string, id: string, input: UpdateFlow): Promise<Flow> {
      const current = await requireFlow(workspaceId, chatbotId, id)
      await units.unit((tx) =>
        tx.flows.update(chatbotId, id, {
          name: input.name ?? current.name,
          definition: input.flow === undefined ? current.definition : JSON.stringify(input.flow),
          updated_at: now(),
        }),
      )
      return toFlow(await requireFlow(workspaceId, chatbotId, id))
    },

    /** Checks the working copy; changes nothing. */
    async validate(workspaceId: string, chatbotId: string, id: string): Promise<ValidationResult> {
      const { errors, warnings } = await check(await requireFlow(workspaceId, chatbotId, id))
      return { valid: errors.length === 0, errors, warnings }
    },

    /**
     * A definition checked as if it were this flow's working copy (the draft the console's test
     * chat runs, unsaved edits included), with the flow's type; changes nothing.
     */
    async checkDraft(
      workspaceId: string,
      chatbotId: string,
      id: string,
      definition?: Record<string, unknown>,
    ): Promise<{ type: FlowType; definition: unknown; report: ValidationReport }> {
      const row = await requireFlow(workspaceId, chatbotId, id)
      const draft = definition ?? JSON.parse(row.definition)
      return { type: row.type, definition: draft, report: await check(row, draft) }
    },

    /** The flow's published versions, newest first. */
    async versions(workspaceId: string, chatbotId: string, id: string): Promise<FlowVersionList> {
      await requireFlow(workspaceId, chatbotId, id)
      const items = await store.versions(id)
      return { items, total: items.length }
    },

    /** One published version with its definition, for a diff or to restore it as the working copy. */
    async version(workspaceId: string, chatbotId: string, id: string, version: number): Promise<FlowVersion> {
      await requireFlow(workspaceId, chatbotId, id)
      const stored = await store.versionSnapshot(id, version)
      if (!stored) throw notFound('flow version')
      return { version: stored.version, published_at: stored.published_at, flow: JSON.parse(stored.definition) }
    },

    /**
     * Makes the working copy the live version when it has no errors. Publishing what is
     * already live changes nothing; a flow with errors stays as it was.
     */
    async publish(workspaceId: string, chatbotId: string, id: string): Promise<PublishResult> {
      const row = await requireFlow(workspaceId, chatbotId, id)
      const { errors } = await check(row)
      if (errors.length > 0) {
        const detail = `the flow has ${errors.length} validation error${errors.length === 1 ? '' : 's'} and was not published; see errors, or POST .../validate`
        throw unprocessable('flow_invalid', detail, errors)
      }
      if (row.status === 'published' && row.has_unpublished_changes === 0 && row.published_at) {
        return { id, status: 'published', published_at: row.published_at }
      }
      const publishedAt = now()
      const version = await units.unit((tx) => tx.flows.publish(id, row.definition, publishedAt))
      // Deleted while it was checked: nothing was written.
      if (version === null) throw notFound('flow')
      events.emit('flow.published', { workspaceId, chatbotId, flowId: id })
      return { id, status: 'published', published_at: publishedAt }
    },

    async remove(workspaceId: string, chatbotId: string, id: string): Promise<void> {
      await requireChatbot(workspaceId, chatbotId)
      const at = now()
      if (!(await units.unit((tx) => tx.flows.remove(chatbotId, id, at)))) throw notFound('flow')
      events.emit('flow.removed', { workspaceId, chatbotId, flowId: id })
    },

    /** The type of a flow of this chatbot, if it has one by that id (for the chatbots domain). */
    kind: (chatbotId: string, id: string): Promise<FlowType | undefined> => store.kind(chatbotId, id),

    /** The live version of a flow, or null when it is a draft or does not exist. */
    async publishedSnapshot(flowId: string): Promise<FlowSnapshot | null> {
      const stored = await store.liveSnapshot(flowId)
      return stored ? toSnapshot(stored) : null
    },

    /** One version of a flow, live or not, for conversations that started on it. */
    async versionSnapshot(flowId: string, version: number): Promise<FlowSnapshot | null> {
      const stored = await store.versionSnapshot(flowId, version)
      return stored ? toSnapshot(stored) : null
    },

    /**
     * Which version a new conversation of the chatbot starts on: its entry flow's when that is
     * set and published, else its most recently published conversation flow's, else none
     * (null). Without the definition: a running server has it in memory (flow-snapshots.ts).
     */
    async entryVersion(chatbotId: string): Promise<{ flowId: string; version: number } | null> {
      const row = await store.entryVersion(chatbotId)
      return row ? { flowId: row.flow_id, version: row.version } : null
    },
  }
}

function toFlow(row: FlowRow): Flow {
  return {
    id: row.id,
    chatbot_id: row.chatbot_id,
    name: row.name,
    type: row.type,
    status: row.status,
    flow: JSON.parse(row.definition),
    created_at: row.created_at,
    updated_at: row.updated_at,
    published_at: row.published_at,
    published_version: row.published_version,
    has_unpublished_changes: row.has_unpublished_changes === 1,
  }
}
