import { conflict, notFound } from '../http/api-error.ts'
import type { Page, PageOf } from '../http/common-model.ts'
import type { Units } from '../db/units.ts'
import type { Clock } from '../support/clock.ts'
import type { EventBus } from '../events/domain-events.ts'
import { newId } from '../support/new-id.ts'
import type { OutboundUrlPolicy } from '../support/outbound-url.ts'
import { channelLookups } from './channel-lookups.ts'
import { type ChatappHandshake, type HandshakeOutcome, type HandshakeRefusal, handshakeRecord } from './chatapp-handshake.ts'
import { chatappKind } from './chatapp-integration.ts'
import type { IntegrationKind } from './integration-kind.ts'
import { type McpOAuthState, mcpKind } from './mcp-integration.ts'
import { mcpIntegrations } from './mcp-integrations.ts'
import type { IntegrationListFilter, IntegrationListItem, IntegrationRow, IntegrationSettings } from './model.ts'
import type { Integration } from './record-model.ts'
import { restApiKind } from './rest-api-integration.ts'
import type { IntegrationStore } from './store.ts'
import { webKind } from './web-integration.ts'

export type IntegrationStores = { integrations: IntegrationStore }

export interface IntegrationServiceDeps {
  stores: IntegrationStores
  units: Units<IntegrationStores>
  now: Clock
  events: EventBus
  /** Whether the chatbot exists in the workspace; answered by the chatbots domain. */
  ownsChatbot: (workspaceId: string, chatbotId: string) => Promise<boolean>
  publicUrl: string
  outbound: OutboundUrlPolicy
  /** Only tests replace it, to show that a key collision is retried. */
  newWidgetKey?: () => string
  /** Only tests lower it, to show that a removed integration's refusal does not crowd out a live one's. */
  maxRememberedRefusals?: number
  /** What an oauth mcp integration's record says about its tokens (answered by server/mcp). */
  mcpOAuthState?: (row: IntegrationRow) => Promise<McpOAuthState>
}

export type IntegrationService = ReturnType<typeof integrationService>

type AnyKind = IntegrationKind<any, any, any, any>
type Created<K extends AnyKind> = Awaited<ReturnType<K['render']>> & ReturnType<K['create']>['revealed']
type Updated<K extends AnyKind> = Awaited<ReturnType<K['render']>> & ReturnType<K['update']>['revealed']
/** `name` and `is_active` are common to every typed PATCH; the kind handles the rest. */
type CommonPatch = { name?: string; is_active?: boolean }

/** The most attempts at a fresh widget key; a collision is already a 1 in 2^142 event. */
const KEY_ATTEMPTS = 3
/** Refused handshakes remembered at most (one per chatapp integration). */
const MAX_REMEMBERED_REFUSALS = 10_000

export function integrationService({ stores, units, now, events, ownsChatbot, publicUrl, outbound, newWidgetKey, mcpOAuthState, maxRememberedRefusals = MAX_REMEMBERED_REFUSALS }: IntegrationServiceDeps) {
  const web = webKind(newWidgetKey)
  const restApi = restApiKind(outbound)
  const chatapp = chatappKind(publicUrl)
  const mcp = mcpKind(outbound, mcpOAuthState)
  const kinds = { web, 'rest-api': restApi, chatapp, mcp }
  /** The last refused verify handshake of each chatapp integration, since the start (never stored), with its chatbot. */
  const handshakeRefusals = new Map<string, HandshakeRefusal & { chatbotId: string }>()
  // Forgotten with what they are about, however it goes: an integration deleted, or its chatbot (which takes its integrations).
  events.on('integration.removed', ({ integrationId }) => void handshakeRefusals.delete(integrationId))
  events.on('chatbot.removed', ({ chatbotId }) => {
    for (const [integrationId, refusal] of handshakeRefusals) if (refusal.chatbotId === chatbotId) handshakeRefusals.delete(integrationId)
  })

  const store = stores.integrations

  async function requireChatbot(workspaceId: string, chatbotId: string): Promise<void> {
    if (!(await ownsChatbot(workspaceId, chatbotId))) throw notFound('chatbot')
  }

  async function render(row: IntegrationRow): Promise<Integration> {
    return kinds[row.type].render(row)
  }

  const exists = (type: string) =>
    conflict('integration_exists', `this chatbot already has a ${type} integration; PATCH or DELETE it instead`)

  async function create<K extends AnyKind>(kind: K, workspaceId: string, chatbotId: string, input: Parameters<K['create']>[0]): Promise<Created<K>> {
    await requireChatbot(workspaceId, chatbotId)
    if (await store.hasType(chatbotId, kind.type)) throw exists(kind.type)
    for (let attempt = 1; ; attempt++) {
      const { settings, revealed } = kind.create(input)
      const row: IntegrationRow = {
        id: newId(),
        chatbot_id: chatbotId,
        workspace_id: workspaceId,
        type: kind.type,
        ...settings,
        created_at: now(),
        updated_at: null,
      }
      const result = await units.unit((tx) => tx.integrations.insert(row))
      if (result === 'inserted') return { ...(await kind.render(row)), ...revealed }
      // The unique index is the guarantee when two creates race past the check above.
      if (result === 'type_exists') throw exists(kind.type)
      if (attempt >= KEY_ATTEMPTS) throw new Error(`no unique public key after ${KEY_ATTEMPTS} attempts`)
    }
  }

  async function getTyped<K extends AnyKind>(kind: K, workspaceId: string, chatbotId: string): Promise<IntegrationRow> {
    await requireChatbot(workspaceId, chatbotId)
    const row = await store.getTyped(workspaceId, chatbotId, kind.type)
    if (!row) throw notFound(`${kind.type} integration`)
    return row
  }

  async function update<K extends AnyKind>(kind: K, workspaceId: string, chatbotId: string, input: Parameters<K['update']>[1] & CommonPatch): Promise<Updated<K>> {
    const row = await getTyped(kind, workspaceId, chatbotId)
    const current: IntegrationSettings = {
      name: input.name ?? row.name,
      is_active: input.is_active ?? row.is_active,
      config: row.config,
      secrets: row.secrets,
      public_key: row.public_key,
    }
    const { settings, revealed } = kind.update(current, input)
    const next: IntegrationRow = { ...row, ...settings }
    if (!sameSettings(row, next)) {
      next.updated_at = now()
      await units.unit((tx) => tx.integrations.update(next))
      events.emit('integration.changed', {
        workspaceId,
        chatbotId,
        integrationId: row.id,
        type: row.type,
        isActive: next.is_active,
      })
    }
    return { ...(await kind.render(next)), ...revealed }
  }

  function typed<K extends AnyKind>(kind: K) {
    return {
      create: (workspaceId: string, chatbotId: string, input: Parameters<K['create']>[0]) => create(kind, workspaceId, chatbotId, input),
      get: async (workspaceId: string, chatbotId: string): Promise<Awaited<ReturnType<K['render']>>> => kind.render(await getTyped(kind, workspaceId, chatbotId)),
      update: (workspaceId: string, chatbotId: string, input: Parameters<K['update']>[1] & CommonPatch) =>
        update(kind, workspaceId, chatbotId, input),
    }
  }

  return {
    web: typed(web),
    restApi: typed(restApi),
    chatapp: typed(chatapp),
    mcp: mcpIntegrations({ stores, units, now, events, kind: mcp, requireChatbot }),

    async list(workspaceId: string, chatbotId: string, filter: IntegrationListFilter): Promise<PageOf<IntegrationListItem>> {
      await requireChatbot(workspaceId, chatbotId)
      return store.list(workspaceId, chatbotId, filter)
    },

    async get(workspaceId: string, chatbotId: string, id: string): Promise<Integration> {
      await requireChatbot(workspaceId, chatbotId)
      const row = await store.get(workspaceId, chatbotId, id)
      if (!row) throw notFound('integration')
      return render(row)
    },

    async remove(workspaceId: string, chatbotId: string, id: string): Promise<void> {
      await requireChatbot(workspaceId, chatbotId)
      const row = await store.get(workspaceId, chatbotId, id)
      if (!row || !(await units.unit((tx) => tx.integrations.remove(workspaceId, chatbotId, id)))) throw notFound('integration')
      events.emit('integration.removed', { workspaceId, chatbotId, integrationId: id, type: row.type })
    },

    /** What the provider's verify handshakes on the chatbot's chatapp callback_url came to. */
    async chatappHandshake(workspaceId: string, chatbotId: string): Promise<ChatappHandshake> {
      const row = await getTyped(chatapp, workspaceId, chatbotId)
      return handshakeRecord(row.config, handshakeRefusals.get(row.id))
    },

    /** Notes a verify handshake of the provider on a chatapp integration's callback_url (whatever its workspace: the provider has no key). */
    async recordChatappHandshake(integrationId: string, outcome: HandshakeOutcome): Promise<void> {
      const row = await store.getById(integrationId)
      if (!row || row.type !== 'chatapp') return
      // A success is stored; a refusal only remembered (a refused request stores nothing).
      if (outcome.verified) await units.unit((tx) => tx.integrations.setChatappHandshake(integrationId, { verified_at: now() }))
      else {
        handshakeRefusals.delete(integrationId)
        handshakeRefusals.set(integrationId, { refused_at: now(), refusal: outcome.refusal, chatbotId: row.chatbot_id })
        // Bounded by the chatapp integrations that exist; the oldest go first should there be more.
        for (const oldest of handshakeRefusals.keys()) {
          if (handshakeRefusals.size <= maxRememberedRefusals) break
          handshakeRefusals.delete(oldest)
        }
      }
    },

    ...channelLookups(store, events),
  }
}

function sameSettings(before: IntegrationRow, after: IntegrationRow): boolean {
  const pick = (row: IntegrationRow) =>
    JSON.stringify([row.name, row.is_active, row.config, row.secrets, row.public_key])
  return pick(before) === pick(after)
}
