import { notFound, unprocessable } from '../http/api-error.ts'
import type { Page, PageOf } from '../http/common-model.ts'
import type { Clock } from '../support/clock.ts'
import type { EventBus } from '../support/events.ts'
import { newId } from '../support/new-id.ts'
import type { CreateFlow, Flow, FlowListItem, FlowType, PublishResult, UpdateFlow, ValidationResult } from './model.ts'
import type { FlowVersion, FlowVersionList } from './version-model.ts'
import { type FlowSnapshot, toSnapshot } from './snapshots.ts'
import type { FlowRow, FlowStore } from './store.ts'
import type { ChatbotReferences } from './validate/conversation.ts'
import { validateFlow } from './validate/validate-flow.ts'
import type { ValidationReport } from './validate/validation-issue.ts'

/** Ids of a chatbot's `mcp` integrations, answered by the integrations domain. */
export type McpIntegrationIds = (chatbotId: string) => ReadonlySet<string>

export interface FlowServiceDeps {
  store: FlowStore
  now: Clock
  events: EventBus
  mcpIntegrationIds: McpIntegrationIds
}

export type FlowService = ReturnType<typeof flowService>

export function flowService({ store, now, events, mcpIntegrationIds }: FlowServiceDeps) {
  function requireChatbot(workspaceId: string, chatbotId: string): void {
    if (!store.chatbotExists(workspaceId, chatbotId)) throw notFound('chatbot')
  }

  function requireFlow(workspaceId: string, chatbotId: string, id: string): FlowRow {
    requireChatbot(workspaceId, chatbotId)
    const row = store.get(chatbotId, id)
    if (!row) throw notFound('flow')
    return row
  }

  function check(row: FlowRow, definition: unknown = JSON.parse(row.definition)): ValidationReport {
    const references = (): ChatbotReferences => ({
      flows: new Map(store.summaries(row.chatbot_id).map(({ id, type, published }) => [id, { type, published }])),
      mcpIntegrationIds: mcpIntegrationIds(row.chatbot_id),
    })
    return validateFlow(row.type, definition, references)
  }

  return {
    list(workspaceId: string, chatbotId: string, page: Page): PageOf<FlowListItem> {
      requireChatbot(workspaceId, chatbotId)
      return store.list(chatbotId, page)
    },

    create(workspaceId: string, chatbotId: string, input: CreateFlow): Flow {
      requireChatbot(workspaceId, chatbotId)
      const id = newId()
      store.insert({
        id,
        chatbot_id: chatbotId,
        name: input.name,
        type: input.type,
        status: 'draft',
        created_at: now(),
        updated_at: null,
        published_at: null,
        published_version: null,
        definition: JSON.stringify(input.flow ?? {}),
      })
      return toFlow(requireFlow(workspaceId, chatbotId, id))
    },

    get: (workspaceId: string, chatbotId: string, id: string): Flow => toFlow(requireFlow(workspaceId, chatbotId, id)),

    /** Edits the working copy; a published flow stays live on its last published version. */
    update(workspaceId: string, chatbotId: string, id: string, input: UpdateFlow): Flow {
      const current = requireFlow(workspaceId, chatbotId, id)
      store.update(chatbotId, id, {
        name: input.name ?? current.name,
        definition: input.flow === undefined ? current.definition : JSON.stringify(input.flow),
        updated_at: now(),
      })
      return toFlow(requireFlow(workspaceId, chatbotId, id))
    },

    /** Checks the working copy; changes nothing. */
    validate(workspaceId: string, chatbotId: string, id: string): ValidationResult {
      const { errors, warnings } = check(requireFlow(workspaceId, chatbotId, id))
      return { valid: errors.length === 0, errors, warnings }
    },

    /**
     * A definition checked as if it were this flow's working copy (the draft the console's test
     * chat runs, unsaved edits included), with the flow's type; changes nothing.
     */
    checkDraft(workspaceId: string, chatbotId: string, id: string, definition?: Record<string, unknown>): { type: FlowType; definition: unknown; report: ValidationReport } {
      const row = requireFlow(workspaceId, chatbotId, id)
      const draft = definition ?? JSON.parse(row.definition)
      return { type: row.type, definition: draft, report: check(row, draft) }
    },

    /** The flow's published versions, newest first. */
    versions(workspaceId: string, chatbotId: string, id: string): FlowVersionList {
      requireFlow(workspaceId, chatbotId, id)
      const items = store.versions(id)
      return { items, total: items.length }
    },

    /** One published version with its definition, for a diff or to restore it as the working copy. */
    version(workspaceId: string, chatbotId: string, id: string, version: number): FlowVersion {
      requireFlow(workspaceId, chatbotId, id)
      const stored = store.versionSnapshot(id, version)
      if (!stored) throw notFound('flow version')
      return { version: stored.version, published_at: stored.published_at, flow: JSON.parse(stored.definition) }
    },

    /**
     * Makes the working copy the live version when it has no errors. Publishing what is
     * already live changes nothing; a flow with errors stays as it was.
     */
    publish(workspaceId: string, chatbotId: string, id: string): PublishResult {
      const row = requireFlow(workspaceId, chatbotId, id)
      const { errors } = check(row)
      if (errors.length > 0) {
        const detail = `the flow has ${errors.length} validation error${errors.length === 1 ? '' : 's'} and was not published; see errors, or POST .../validate`
        throw unprocessable('flow_invalid', detail, errors)
      }
      if (row.status === 'published' && row.has_unpublished_changes === 0 && row.published_at) {
        return { id, status: 'published', published_at: row.published_at }
      }
      const publishedAt = now()
      store.publish(id, row.definition, publishedAt)
      events.emit('flow.published', { workspaceId, chatbotId, flowId: id })
      return { id, status: 'published', published_at: publishedAt }
    },

    remove(workspaceId: string, chatbotId: string, id: string): void {
      requireChatbot(workspaceId, chatbotId)
      if (!store.remove(chatbotId, id, now())) throw notFound('flow')
      events.emit('flow.removed', { workspaceId, chatbotId, flowId: id })
    },

    /** The type of a flow of this chatbot, if it has one by that id (for the chatbots domain). */
    kind: (chatbotId: string, id: string): FlowType | undefined => store.kind(chatbotId, id),

    /** The live version of a flow, or null when it is a draft or does not exist. */
    publishedSnapshot(flowId: string): FlowSnapshot | null {
      const stored = store.liveSnapshot(flowId)
      return stored ? toSnapshot(stored) : null
    },

    /** One version of a flow, live or not, for conversations that started on it. */
    versionSnapshot(flowId: string, version: number): FlowSnapshot | null {
      const stored = store.versionSnapshot(flowId, version)
      return stored ? toSnapshot(stored) : null
    },

    /**
     * Which version a new conversation of the chatbot starts on: its entry flow's when that is
     * set and published, else its most recently published conversation flow's, else none
     * (null). Without the definition: a running server has it in memory (flow-snapshots.ts).
     */
    entryVersion(chatbotId: string): { flowId: string; version: number } | null {
      const row = store.entryVersion(chatbotId)
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
