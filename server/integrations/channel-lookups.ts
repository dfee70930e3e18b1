import { RowCache } from '../db/row-cache.ts'
import type { WidgetConfigValues } from '../protocol/widget-config-defaults.ts'
import type { EventBus } from '../events/domain-events.ts'
import type { IntegrationRow } from './model.ts'
import type { IntegrationStore } from './store.ts'
import { completeWidgetConfig, type WebConfig } from './web-integration.ts'

/** What the widget socket needs to accept, configure and verify a visitor. */
export interface WebChannel {
  integrationId: string
  chatbotId: string
  workspaceId: string
  isActive: boolean
  name: string
  allowedDomains: string[]
  widgetConfig: WidgetConfigValues
  greetingMessage: string | null
  /** Raw, for the identify() HMAC; never send it to a client or a log. */
  identitySecret: string | null
  defaultCountry: string | null
}

/** What the rest-api channel needs to deliver webhooks. */
export interface RestApiChannel {
  integrationId: string
  chatbotId: string
  workspaceId: string
  isActive: boolean
  webhookUrl: string
  /** Raw `whsec_...`, to sign with; never send it anywhere or log it. */
  signingSecret: string
}

/** What the chatapp channel needs to take the provider's webhooks and call its API. */
export interface ChatappChannel {
  integrationId: string
  chatbotId: string
  workspaceId: string
  isActive: boolean
  phoneNumberId: string
  /** Raw, for the provider's API; never send it anywhere else or log it. */
  accessToken: string
  /** Raw, to check the provider's payload signatures; null when none is set. */
  appSecret: string | null
  /** Raw, to answer the provider's verify handshake; never send it anywhere or log it. */
  verifyToken: string | null
}

/** Web channels kept by widget key: one per site, so a few thousand at most in use at once. */
const CACHED_WEB_CHANNELS = 4096

/** A web channel: at once when it is kept, else once read. */
export type WebChannelFound = WebChannel | null | Promise<WebChannel | null>

/**
 * The lookups other parts of Parley (channels, the flow validator) make by key or id.
 * Every widget socket and config request starts with its widget key: the web channel found
 * for it is kept (the read and the widget config's defaults were about 4% of the serving
 * thread's time in bench:agent), and a kept one is answered in the caller's tick, so that a
 * socket's upgrade waits for nothing. It is forgotten whenever it could change: the events of
 * every change to an integration, and a chatbot's deletion (which takes its integrations with
 * it), emitted once the change is committed. A read under way when one of them comes is not
 * kept (it may have read the row as it was). A key that finds nothing is not kept.
 */
export function channelLookups(store: IntegrationStore, events: EventBus) {
  const webByKey = new RowCache<WebChannel>(CACHED_WEB_CHANNELS)
  /** Counts the times the kept channels were forgotten: a read that began before the last one is not kept. */
  let forgotten = 0
  const forgetWeb = () => {
    forgotten++
    webByKey.clear()
  }
  events.on('integration.changed', ({ type }) => type === 'web' && forgetWeb())
  events.on('integration.removed', ({ type }) => type === 'web' && forgetWeb())
  events.on('chatbot.removed', forgetWeb)
  events.on('database.rolled_back', forgetWeb)

  async function readWeb(widgetKey: string): Promise<WebChannel | null> {
    const since = forgotten
    const found = webChannelOf(await store.getByPublicKey(widgetKey))
    if (found && since === forgotten) webByKey.set(widgetKey, found)
    return found
  }

  return {
    /** Callers get the kept object itself: they must not change it. */
    findWebByWidgetKey: (widgetKey: string): WebChannelFound => webByKey.get(widgetKey) ?? readWeb(widgetKey),

    /** A rest-api integration by id, whatever its workspace (deliveries carry only the id). */
    findRestApiById: async (integrationId: string): Promise<RestApiChannel | null> => restApiChannelOf(await store.getById(integrationId)),

    /** A chatapp integration by id, whatever its workspace (webhooks and deliveries carry only the id). */
    findChatappById: async (integrationId: string): Promise<ChatappChannel | null> => chatappChannelOf(await store.getById(integrationId)),

    /** The widget key of the chatbot's web integration while it is active. */
    async activeWidgetKeyOf(chatbotId: string): Promise<string | null> {
      const row = await store.getOfChatbot(chatbotId, 'web')
      return row?.is_active ? row.public_key : null
    },

    /** The chatbot's mcp integrations, oldest first (ids a flow may reference). */
    listMcpIntegrationIds: (chatbotId: string): Promise<string[]> => store.idsOfType(chatbotId, 'mcp'),
  }
}

function webChannelOf(row: IntegrationRow | null): WebChannel | null {
  if (!row || row.type !== 'web') return null
  const config = row.config as unknown as WebConfig
  const secret = row.secrets.identity_secret
  return {
    integrationId: row.id,
    chatbotId: row.chatbot_id,
    workspaceId: row.workspace_id,
    isActive: row.is_active,
    name: row.name,
    allowedDomains: config.allowed_domains,
    widgetConfig: completeWidgetConfig(config.widget_config),
    greetingMessage: config.greeting_message,
    identitySecret: typeof secret === 'string' ? secret : null,
    defaultCountry: config.default_country,
  }
}

/** What the rest-api channel needs of a row; null for a row of another type. */
export function restApiChannelOf(row: IntegrationRow | null): RestApiChannel | null {
  if (!row || row.type !== 'rest-api') return null
  return {
    integrationId: row.id,
    chatbotId: row.chatbot_id,
    workspaceId: row.workspace_id,
    isActive: row.is_active,
    webhookUrl: String(row.config.webhook_url),
    signingSecret: String(row.secrets.signing_secret),
  }
}

/** What the chatapp channel needs of a row; null for a row of another type. */
export function chatappChannelOf(row: IntegrationRow | null): ChatappChannel | null {
  if (!row || row.type !== 'chatapp') return null
  const { app_secret: appSecret, verify_token: verifyToken } = row.secrets
  return {
    integrationId: row.id,
    chatbotId: row.chatbot_id,
    workspaceId: row.workspace_id,
    isActive: row.is_active,
    phoneNumberId: String(row.config.phone_number_id),
    accessToken: String(row.secrets.access_token),
    appSecret: typeof appSecret === 'string' ? appSecret : null,
    verifyToken: typeof verifyToken === 'string' ? verifyToken : null,
  }
}
