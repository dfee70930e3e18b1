import type { Database } from 'bun:sqlite'
import { Elysia } from 'elysia'
import { inboundStore } from './channels/rest-api/inbound-store.ts'
import { restApiInbound } from './channels/rest-api/inbound-service.ts'
import { restApiDeliveries } from './channels/rest-api/rest-api-deliveries.ts'
import { restApiChannelRoutes } from './channels/rest-api/routes.ts'
import { widgetConfigRoutes } from './channels/web/config-routes.ts'
import { webChannel } from './channels/web/web-channel.ts'
import { chatappDeliveries } from './channels/chatapp/chatapp-deliveries.ts'
import { chatappStore } from './channels/chatapp/chatapp-store.ts'
import { chatappInbound } from './channels/chatapp/inbound-service.ts'
import type { MetaFlowView } from './channels/chatapp/meta-flow-message.ts'
import { chatappChannelRoutes } from './channels/chatapp/routes.ts'
import { chatappWebhookRoutes } from './channels/chatapp/webhook-routes.ts'
import { chatbotRoutes } from './chatbots/routes.ts'
import { chatbotService } from './chatbots/service.ts'
import { chatbotStore } from './chatbots/store.ts'
import type { Config } from './config.ts'
import { agentService } from './conversations/agent-service.ts'
import { contactStore } from './conversations/contact-store.ts'
import { ratingService } from './conversations/rating-service.ts'
import { ratingStore } from './conversations/rating-store.ts'
import { readService } from './conversations/read-service.ts'
import { readStore } from './conversations/read-store.ts'
import { conversationStore } from './conversations/conversation-store.ts'
import { messageStore } from './conversations/message-store.ts'
import { flowSnapshots } from './conversations/flow-snapshots.ts'
import { conversationRoutes } from './conversations/routes.ts'
import { conversationService } from './conversations/service.ts'
import { visitorService } from './conversations/visitor-service.ts'
import { writeBatcher } from './db/write-batcher.ts'
import { docsRoutes } from './docs/routes.ts'
import { demoChatbot } from './instance/demo-chatbot.ts'
import { instanceStore } from './instance/store.ts'
import type { OutboxTuning } from './outbox/outbox-worker.ts'
import { outboxStore } from './outbox/outbox-store.ts'
import { flowRoutes } from './flows/routes.ts'
import { flowSchemaRoutes } from './flows/schema-routes.ts'
import { flowService } from './flows/service.ts'
import { flowStore } from './flows/store.ts'
import { healthRoutes } from './health/routes.ts'
import { answerAfterCommit } from './http/answer-after-commit.ts'
import { authRoutes } from './people/auth-routes.ts'
import { peopleService } from './people/service.ts'
import { sessionAuth } from './people/session-auth.ts'
import { sessionService } from './people/sessions.ts'
import { signInService } from './people/sign-in.ts'
import { peopleStore } from './people/store.ts'
import { userRoutes } from './people/user-routes.ts'
import { apiKeyCheck, authenticate } from './http/authenticate.ts'
import { failedAttempts } from './http/failed-attempts.ts'
import { DEFAULT_BODY_LIMIT, jsonBodyParser } from './http/json-body.ts'
import { loggedFetch } from './http/logged-fetch.ts'
import { rateLimiter } from './http/rate-limiter.ts'
import { securityHeaders } from './http/security-headers.ts'
import { renderError } from './http/render-error.ts'
import { refuseRepeatedQueryParameters } from './http/repeated-query.ts'
import { routeMethods } from './http/route-methods.ts'
import { integrationRoutes } from './integrations/routes.ts'
import { integrationService } from './integrations/service.ts'
import { integrationStore } from './integrations/store.ts'
import { catalogueStore } from './mcp/catalogue-store.ts'
import { type McpTuning, mcpService } from './mcp/mcp-service.ts'
import { mcpServerRoutes } from './mcp/routes.ts'
import { type Clock, systemClock } from './support/clock.ts'
import { eventBus } from './support/events.ts'
import type { Logger } from './support/logger.ts'
import { type Lookup, outboundUrlPolicy } from './support/outbound-url.ts'
import { widgetAssetRoutes } from './widget-assets/routes.ts'
import { workspaceService } from './workspaces/service.ts'
import { workspaceStore } from './workspaces/store.ts'

export interface AppDeps {
  db: Database
  config: Config
  logger: Logger
  now?: Clock
  /** Protocol timings, shortened by tests; the outbox's clock and timers, moved by tests. */
  tuning?: { helloTimeoutMs?: number; outbox?: OutboxTuning & { ca?: string }; dnsLookup?: Lookup; mcp?: McpTuning }
}

/**
 * The one composition root: builds every store and service over one database and mounts
 * their routes behind one error renderer. Nothing else constructs domain objects.
 */
export function createApp({ db, config, logger, now = systemClock, tuning = {} }: AppDeps) {
  const { outbox: outboxTuning, dnsLookup, mcp: mcpTuning, ...webTuning } = tuning
  const events = eventBus()
  const outbound = outboundUrlPolicy(config.outboundAllow, dnsLookup)
  const workspaces = workspaceService(workspaceStore(db), now)
  const chatbotRows = chatbotStore(db)
  const integrations = integrationService({
    store: integrationStore(db),
    now,
    events,
    ownsChatbot: (workspaceId, chatbotId) => chatbotRows.get(workspaceId, chatbotId) !== null,
    publicUrl: config.publicUrl,
    outbound,
  })
  const mcp = mcpService({ integrations: integrations.mcp, catalogues: catalogueStore(db), policy: outbound, events, now, logger, tuning: mcpTuning })
  const flows = flowService({
    store: flowStore(db),
    now,
    events,
    mcpIntegrationIds: (chatbotId) => new Set(integrations.listMcpIntegrationIds(chatbotId)),
  })
  const chatbots = chatbotService({ store: chatbotRows, now, events, flowKind: flows.kind, outbound })
  const personRows = peopleStore(db)
  const people = peopleService({ store: personRows, now, publicUrl: config.publicUrl })
  const sessions = sessionService({ store: personRows, now })
  const signIn = signInService({ store: personRows, sessions })
  const sessionCookies = sessionAuth({ sessions, publicOrigin: config.publicUrl })
  const checkKey = apiKeyCheck(workspaces, failedAttempts(config.authFailuresPerMinute))
  const auth = authenticate(checkKey, rateLimiter(config.rateLimitPerMinute), sessionCookies.caller)
  const contacts = contactStore(db)
  const conversationRows = conversationStore(db)
  // The stores' cached rows must match the database: a rolled-back batch or a chatbot's
  // cascading delete changes rows behind them.
  const forgetCachedRows = () => {
    contacts.forgetCached()
    conversationRows.forgetCached()
  }
  events.on('chatbot.removed', forgetCachedRows)
  const batch = writeBatcher(db, (error) => {
    forgetCachedRows()
    logger.error('batch commit failed', { error: String(error) })
  })
  const messages = messageStore(db)
  const restApiOut = restApiDeliveries({
    store: outboxStore(db),
    batch,
    integrations,
    contactOf: (id) => contacts.get(id),
    events,
    outbound,
    logger,
    tuning: outboxTuning,
  })
  const chatappRows = chatappStore(db)
  const metaFlow = (workspaceId: string, chatbotId: string, flowId: string): MetaFlowView | null => {
    const snapshot = flows.publishedSnapshot(flowId)
    if (snapshot?.type !== 'meta' || snapshot.chatbotId !== chatbotId) return null
    try {
      return { name: flows.get(workspaceId, chatbotId, flowId).name, definition: snapshot.definition }
    } catch {
      return null
    }
  }
  const chatappOut = chatappDeliveries({
    outbox: outboxStore(db),
    store: chatappRows,
    batch,
    integrations,
    contactOf: (id) => contacts.get(id),
    metaFlow,
    events,
    outbound,
    logger,
    apiUrl: config.chatappApiUrl,
    tuning: outboxTuning,
  })
  const conversations = conversationService({
    contacts,
    conversations: conversationRows,
    messages,
    snapshots: flowSnapshots(flows, events),
    events,
    now,
    batch,
    turnWriters: [restApiOut.turnWriter, chatappOut.turnWriter],
  })
  const visitors = visitorService(contacts, now)
  const restApiIn = restApiInbound({ integrations, visitors, conversations, store: inboundStore(db) })
  const chatappIn = chatappInbound({ integrations, visitors, conversations, store: chatappRows, batch, now, logger, metaFlow })
  const ratings = ratingService({ conversations: conversationRows, ratings: ratingStore(db), batch, now })
  const reads = readService({ reads: readStore(db), batch, events, now })
  const desk = agentService({ chatbots, conversations: conversationRows, contacts, messages, lifecycle: conversations, ratings, reads, events })
  const findWebIntegration = (widgetKey: string) => integrations.findWebByWidgetKey(widgetKey)
  const demo = demoChatbot({ chatbots, flows, integrations, instance: instanceStore(db) })
  const web = webChannel({
    findIntegration: findWebIntegration,
    visitors,
    conversations,
    ratings,
    reads,
    events,
    logger,
    ratePerMinute: config.socketRatePerMinute,
    ...webTuning,
  })

  const devApi = new Elysia({ prefix: '/api/dev/v1' })
    .use(chatbotRoutes(auth, chatbots))
    .use(integrationRoutes(auth, integrations))
    .use(mcpServerRoutes(auth, mcp))
    .use(flowRoutes(auth, flows))
    .use(conversationRoutes(auth, desk))
    .use(restApiChannelRoutes(auth, restApiIn, restApiOut))
    .use(chatappChannelRoutes(auth, chatappOut, chatappIn))
    .use(authRoutes({ auth, people, sessions, signIn, sessionAuth: sessionCookies }))
    .use(userRoutes(auth, people))

  const http = new Elysia({ normalize: false })
  const allowedMethods = routeMethods(() => http.routes)

  http
    // WhatsApp Flow JSON documents reach 10 MB; the provider's webhooks are signed over their exact bytes.
    .onParse(
      jsonBodyParser([{ path: /^\/hooks\/chatapp\//, bytes: DEFAULT_BODY_LIMIT, keepRaw: true }, { path: /\/flows(\/|$)/, bytes: 16 * 1024 * 1024, shape: { maxDepth: 64, maxKeys: 1_000_000 } }, { path: /^\/api\/dev\/v1\/auth\//, bytes: 16 * 1024 }], (request, path) => {
        if (path.startsWith('/api/dev/v1/') && !sessionCookies.admitsWithoutKey(request, path)) checkKey(request)
      }),
    )
    .onError(({ code, error, request }) => renderError({ code, error, request, allowedMethods, logger }))
    .onTransform(({ request, path }) => {
      if (path.startsWith('/api/')) refuseRepeatedQueryParameters(request)
    })
    .use(healthRoutes(db))
    .use(docsRoutes(() => http.routes, config.publicUrl))
    .use(flowSchemaRoutes(config.publicUrl))
    .use(widgetConfigRoutes(findWebIntegration, config.publicRatePerMinute))
    .use(devApi)
    .use(chatappWebhookRoutes(integrations, chatappIn, config.publicRatePerMinute))
    .use(widgetAssetRoutes({ demoWidgetKey: () => demo.widgetKey(), publicUrl: config.publicUrl }))

  /** Run at shutdown, after the listener stops: each domain releases what it holds open. */
  const closers: (() => void | Promise<void>)[] = [() => chatappOut.close(), () => restApiOut.close(), () => web.close(), () => mcp.close()]

  return {
    http,
    /** The HTTP entry point: the app with request ids, request logs and security headers, a write answered once it is committed. */
    fetch: loggedFetch(answerAfterCommit((request) => http.fetch(request), batch, logger), logger, securityHeaders(config)),
    services: { workspaces, chatbots, integrations, flows, conversations, visitors, desk, demo, people, sessions, mcp },
    events,
    socket: web.socket,
    hub: web.hub,
    outbox: restApiOut.worker,
    chatappOutbox: chatappOut.worker,
    /**
     * The open batch is committed first, so that what it announces (deliveries claimed, messages
     * to send) happens while the domains still run and they can finish it in their grace time;
     * what they write while closing is committed last, before the database may be closed.
     */
    async close() {
      batch.flush()
      for (const close of closers) await close()
      batch.flush()
    },
  }
}

export type App = ReturnType<typeof createApp>
