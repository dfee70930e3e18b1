import type { Database } from 'bun:sqlite'
import { statSync } from 'node:fs'
import { Elysia } from 'elysia'
import { restApiInbound } from './channels/rest-api/inbound-service.ts'
import { restApiDeliveries } from './channels/rest-api/rest-api-deliveries.ts'
import { restApiChannelRoutes, restApiMessageBodies } from './channels/rest-api/routes.ts'
import { widgetConfigRoutes } from './channels/web/config-routes.ts'
import { uploadCredentials, webUploadRoutes } from './channels/web/upload-routes.ts'
import type { DraftRelayTuning } from './channels/web/draft-relay.ts'
import { webChannel } from './channels/web/web-channel.ts'
import { chatappDeliveries } from './channels/chatapp/chatapp-deliveries.ts'
import { chatappStore } from './channels/chatapp/chatapp-store.ts'
import { chatappInbound } from './channels/chatapp/inbound-service.ts'
import { chatappMediaDownloader } from './channels/chatapp/media-download.ts'
import { chatappChannelRoutes } from './channels/chatapp/routes.ts'
import { chatappWebhookRoutes } from './channels/chatapp/webhook-routes.ts'
import { attachmentRoutes } from './attachments/routes.ts'
import { backupThread } from './backups/backup-thread.ts'
import { attachmentService } from './attachments/service.ts'
import { activityRoutes } from './chatbots/activity-routes.ts'
import { activityService } from './chatbots/activity-service.ts'
import { type AutopilotRunnerDeps, autopilotRunner, type AutopilotTuning, DEFAULT_MODEL_TIMEOUT_MS } from './autopilot/autopilot-runner.ts'
import { autopilotRoutes } from './autopilot/routes.ts'
import { runInsight } from './autopilot/run-insight.ts'
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
import { sqliteUnits } from './db/sqlite-units.ts'
import { writeBatcher } from './db/write-batcher.ts'
import { deskAnnouncements } from './desk/announcements.ts'
import { deskSocket } from './desk/desk-socket.ts'
import { deskFeed } from './desk/feed.ts'
import { feedStore } from './desk/feed-store.ts'
import { listStore } from './desk/list-store.ts'
import { messageIndexer, type MessageIndexerTuning } from './desk/message-indexer.ts'
import { messageSearchStore } from './desk/message-search-store.ts'
import { deskRoutes, deskUploadBodies } from './desk/routes.ts'
import { deskService } from './desk/service.ts'
import { deskStore } from './desk/store.ts'
import { deskTurnFeed } from './desk/turn-feed.ts'
import { docsRoutes } from './docs/routes.ts'
import { demoChatbot } from './instance/demo-chatbot.ts'
import type { OutboxTuning } from './outbox/outbox-worker.ts'
import { outboxStore } from './outbox/outbox-store.ts'
import { draftRunner } from './flows/draft-run.ts'
import { draftAutopilot } from './autopilot/draft-autopilot.ts'
import { flowEditorRoutes } from './flows/editor-routes.ts'
import { insightsRoutes } from './flow-insights/insights-routes.ts'
import { insightsService } from './flow-insights/insights-service.ts'
import { stepRecorder } from './flow-insights/step-recorder.ts'
import { stepStore } from './flow-insights/step-store.ts'
import { flowRoutes } from './flows/routes.ts'
import { flowSchemaRoutes } from './flows/schema-routes.ts'
import { flowService } from './flows/service.ts'
import { metaFlowLookup } from './flows/meta-flow-view.ts'
import { answerAfterCommit } from './http/answer-after-commit.ts'
import { peopleModule } from './people/people-module.ts'
import { sessionFirst } from './people/session-auth.ts'
import { type BodyLimit, DEFAULT_BODY_LIMIT, declaredBodyBytes, jsonBodyParser } from './http/json-body.ts'
import { loggedFetch } from './http/logged-fetch.ts'
import { securityHeaders } from './http/security-headers.ts'
import { renderError } from './http/render-error.ts'
import { trustedProxies } from './http/trusted-proxies.ts'
import { refuseRepeatedQueryParameters } from './http/repeated-query.ts'
import { routeMethods } from './http/route-methods.ts'
import { integrationRoutes } from './integrations/routes.ts'
import { integrationService } from './integrations/service.ts'
import { answeredNow } from './db/answered-now.ts'
import { chatappChannelOf, restApiChannelOf } from './integrations/channel-lookups.ts'
import type { McpTuning } from './mcp/mcp-service.ts'
import { mcpModule } from './mcp/mcp-module.ts'
import { modelTest } from './llm/model-test.ts'
import { modelTestRoutes } from './llm/model-test-routes.ts'
import { oauthStateOf } from './mcp/oauth-state.ts'
import { appMetrics } from './metrics/app-metrics.ts'
import { httpMetrics } from './metrics/http-metrics.ts'
import { metricsRegistry } from './metrics/registry.ts'
import { metricsRoutes } from './metrics/routes.ts'
import { type Clock, systemClock } from './support/clock.ts'
import { eventBus } from './events/domain-events.ts'
import type { Logger } from './support/logger.ts'
import { type Lookup, outboundUrlPolicy } from './support/outbound-url.ts'
import type { LogRing } from './operations/log-ring.ts'
import { operationsModule } from './operations/operations-module.ts'
import { sqliteDatabaseBytes } from './operations/sqlite-store.ts'
import { systemOutboxTime } from './outbox/outbox-time.ts'
import { UPLOAD_PATH } from './protocol/widget-protocol.ts'
import { BACKUP_WORKER_URL } from './threads.ts'
import { VERSION } from './version.ts'
import { appAssetRoutes } from './app-assets/routes.ts'
import { bootConfigFor } from './channels/web/boot-config.ts'
import { widgetAssetRoutes } from './widget-assets/routes.ts'
import { widgetPreviewRoutes } from './widget-preview/routes.ts'
import { apiKeyRoutes } from './workspaces/key-routes.ts'
import { workspaceService } from './workspaces/service.ts'
import { sqliteStores } from './stores.ts'
import { knowledgeModule } from './knowledge/knowledge-module.ts'
import { labelRoutes } from './labels/routes.ts'
import { labelService } from './labels/service.ts'
import { flowLabels } from './labels/flow-labels.ts'
import { businessHoursRoutes } from './business-hours/routes.ts'
import { businessHoursService } from './business-hours/service.ts'
import { neededFacts } from './engine/needed-facts.ts'
import type { TurnFacts } from './conversations/service.ts'

export interface AppDeps {
  db: Database
  config: Config
  logger: Logger
  now?: Clock
  /** The logger's latest lines, for the operations page (serve.ts keeps them). */
  recentLogs?: Pick<LogRing, 'lines'>
  /** Protocol timings, shortened by tests; the outbox's clock and timers, moved by tests. */
  tuning?: { helloTimeoutMs?: number; uploadGraceMs?: number; outbox?: OutboxTuning & { ca?: string }; dnsLookup?: Lookup; mcp?: McpTuning; autopilot?: AutopilotTuning; deskSearch?: MessageIndexerTuning } & DraftRelayTuning
}

/**
 * The one composition root: builds every store and service over one database and mounts
 * their routes behind one error renderer. Nothing else constructs domain objects.
 */
export function createApp({ db, config, logger, now = systemClock, recentLogs, tuning = {} }: AppDeps) {
  const { outbox: outboxTuning, dnsLookup, mcp: mcpTuning, autopilot: autopilotTuning, deskSearch: deskSearchTuning, ...webTuning } = tuning
  const events = eventBus()
  const outbound = outboundUrlPolicy(config.outboundAllow, dnsLookup)
  const batch = writeBatcher(db, (error) => {
    events.emit('database.rolled_back', {})
    logger.error('batch commit failed', { error: String(error) })
  })
  // The stores behind the seam (stores.ts), and their unit of work on the group commit: domains move there one by one.
  const stores = sqliteStores(db)
  const units = sqliteUnits(batch, stores)
  const chatbotRows = chatbotStore(db)
  const mcpOAuthState = oauthStateOf(stores.mcpOAuth)
  const integrations = integrationService({
    stores,
    units,
    mcpOAuthState,
    now,
    events,
    ownsChatbot: async (workspaceId, chatbotId) => chatbotRows.get(workspaceId, chatbotId) !== null,
    publicUrl: config.publicUrl,
    outbound,
  })
  const flows = flowService({
    stores,
    units,
    now,
    events,
    mcpIntegrationIds: async (chatbotId) => new Set(await integrations.listMcpIntegrationIds(chatbotId)),
  })
  const chatbots = chatbotService({ store: chatbotRows, now, events, flowKind: flows.kind, outbound })
  const contacts = contactStore(db)
  const conversationRows = conversationStore(db)
  // The stores' cached rows must match the database: a rolled-back batch or a chatbot's
  // cascading delete changes rows behind them.
  const forgetCachedRows = () => {
    contacts.forgetCached()
    conversationRows.forgetCached()
  }
  events.on('chatbot.removed', forgetCachedRows)
  events.on('database.rolled_back', forgetCachedRows)
  const tools = mcpModule({ integrations: integrations.mcp, oauthStateOf: mcpOAuthState, stores, units, outbound, events, now, logger, publicUrl: config.publicUrl, publicRatePerMinute: config.publicRatePerMinute, tuning: mcpTuning })
  const { mcp } = tools
  const workspaces = workspaceService({ stores, units, now })
  const team = peopleModule({ stores, units, now, events, config, apiKeys: workspaces })
  const { people, sessions, sessionCookies, checkKey, auth } = team
  // One process writes the SQLite file: sources it left indexing are taken up at start.
  const knowledgeBase = knowledgeModule({ stores, units, now, logger, soleWriter: true })
  const messages = messageStore(db)
  const restApiOut = restApiDeliveries({
    store: outboxStore(db),
    claims: { stores, units },
    integrations,
    integrationNow: (id) => restApiChannelOf(answeredNow(stores.integrations.getById(id))),
    contactOf: (id) => contacts.get(id),
    events,
    outbound,
    logger,
    tuning: outboxTuning,
  })
  const chatappRows = chatappStore(db)
  const metaFlow = metaFlowLookup(stores.flows)
  const chatappOut = chatappDeliveries({
    outbox: outboxStore(db),
    store: chatappRows,
    claims: { stores, units },
    integrations,
    integrationNow: (id) => chatappChannelOf(answeredNow(stores.integrations.getById(id))),
    contactOf: (id) => contacts.get(id),
    metaFlow,
    events,
    outbound,
    logger,
    apiUrl: config.chatappApiUrl,
    tuning: outboxTuning,
  })
  const snapshots = flowSnapshots(stores.flows, events)
  const flowSteps = stepStore(db)
  const runPortsDeps: AutopilotRunnerDeps['ports'] = {
    mcp,
    integrationName: (workspaceId, chatbotId, integrationId) =>
      integrations.mcp.row(workspaceId, chatbotId, integrationId).then((row) => row.name, () => null),
    outbound,
    ca: mcpTuning?.ca,
  }
  const autopilot = autopilotRunner({
    stores,
    units,
    messages,
    contacts,
    snapshots,
    ports: runPortsDeps,
    events,
    now,
    logger,
    tuning: { runsPerWorkspace: config.agentRunsPerWorkspace, ...autopilotTuning },
  })
  const draftAgents = draftAutopilot({ chatbot: (id) => stores.agentRuns.chatbot(id), ports: runPortsDeps, logger, tuning: autopilotTuning })
  const deskRows = deskStore(db)
  // What a flow's branches test besides variables (labels, business hours), read only for flows that test them.
  const labelsOfFlows = flowLabels(stores.labels)
  const hours = businessHoursService({ stores, units, now })
  events.on('chatbot.removed', ({ chatbotId }) => hours.forget(chatbotId))
  const turnFacts: TurnFacts = (conversation, flow, at) => {
    const needs = neededFacts(flow)
    return {
      ...(needs.labels ? { labels: labelsOfFlows.conversationLabels(conversation.id) } : {}),
      ...(needs.businessHours ? { withinBusinessHours: hours.openAt(conversation.chatbot_id, at), closedText: hours.closedText(conversation.chatbot_id) } : {}),
    }
  }
  const feed = deskFeed({ store: feedStore(db), batch })
  // Numbers handed out in a rolled-back batch were never stored: read them again.
  events.on('database.rolled_back', feed.forget)
  const conversations = conversationService({
    contacts,
    conversations: conversationRows,
    messages,
    snapshots,
    events,
    now,
    batch,
    turnWriters: [restApiOut.turnWriter, chatappOut.turnWriter, autopilot.turnWriter, deskTurnFeed({ feed, store: deskRows, events }), stepRecorder(flowSteps), labelsOfFlows.turnWriter],
    turnFacts,
  })
  autopilot.start(conversations)
  const visitors = visitorService(contacts, now)
  const attachments = attachmentService({ stores, units, now, publicUrl: config.publicUrl, maxBytes: config.attachmentMaxBytes })
  const restApiIn = restApiInbound({ integrations, visitors, conversations, attachments, stores })
  // A user's picture or document is fetched from the provider while its webhook waits (it retries past about 20 s);
  // a shutdown cuts the download short and answers 503, so the provider sends it again.
  const downloadMedia = chatappMediaDownloader({ policy: outbound, time: systemOutboxTime, apiUrl: config.chatappApiUrl, maxBytes: config.attachmentMaxBytes, timeoutMs: 8_000 })
  const chatappIn = chatappInbound({ integrations, visitors, conversations, store: chatappRows, batch, now, logger, metaFlow, attachments, downloadMedia })
  const ratings = ratingService({ conversations: conversationRows, ratings: ratingStore(db), batch, now, events })
  const reads = readService({ reads: readStore(db), batch, events, now })
  const desk = agentService({ chatbots, conversations: conversationRows, contacts, messages, lifecycle: conversations, ratings, reads, events })
  const deskWork = deskService({ store: deskRows, lists: listStore(db), conversations: conversationRows, contacts, messages, lifecycle: conversations, attachments, batch, events, feed, now })
  const deskSockets = deskSocket({
    callerOf: (request) => sessionCookies.preloadedCaller(request),
    sessions,
    publicOrigin: config.publicUrl,
    feed,
    desk: deskWork,
    store: deskRows,
    events,
    logger,
  })
  const deskSearch = messageIndexer({ store: messageSearchStore(db), events, logger, tuning: deskSearchTuning })
  const stopDeskAnnouncements = deskAnnouncements({ events, feed, store: deskRows, batch, now, pass: deskSockets.pass })
  const findWebIntegration = (widgetKey: string) => integrations.findWebByWidgetKey(widgetKey)
  const writeBackup = backupThread(BACKUP_WORKER_URL)
  const running = operationsModule({ store: stores.operations, config, version: VERSION, now, logger, recentLogs, databaseFile: db.filename, writeBackup })
  const demo = demoChatbot({ chatbots, flows, integrations, instance: stores.instance, units })
  const web = webChannel({
    findIntegration: findWebIntegration,
    visitors,
    conversations,
    ratings,
    reads,
    events,
    logger,
    ratePerMinute: config.socketRatePerMinute,
    attachments,
    isTeamPage: sessionCookies.isTeamPage,
    ...webTuning,
    // Outside business hours, a handed-off visitor whose e-mail the team does not know is asked for it.
    askEmail: ({ chatbot_id, contact_id }) => !hours.openAt(chatbot_id, now()) && !knowsEmail(contacts.get(contact_id)),
  })

  // A conversation's labels changed by a person or a key: open desks fetch its row again.
  const labels = labelService({
    stores,
    units,
    now,
    changed: ({ workspaceId, carrier }) => {
      const thread = carrier.kind === 'conversation' ? deskRows.thread(workspaceId, carrier.id) : null
      if (thread) feed.publish(workspaceId, { type: 'conversation', conversation_id: thread.conversation_id, chatbot_id: thread.chatbot_id, change: 'labels', status: thread.status, assignee_id: thread.assignee_id })
    },
  })
  const devApi = new Elysia({ prefix: '/api/dev/v1' })
    .use(chatbotRoutes(auth, chatbots))
    .use(integrationRoutes(auth, integrations))
    .use(tools.routes(auth))
    .use(flowRoutes(auth, flows))
    .use(flowEditorRoutes(auth, flows, draftRunner(flows, draftAgents, now)))
    .use(activityRoutes(auth, activityService({ stores, now })))
    .use(insightsRoutes(auth, insightsService(flows, flowSteps, now)))
    .use(apiKeyRoutes(auth, workspaces))
    .use(running.routes(auth))
    .use(conversationRoutes(auth, desk))
    .use(autopilotRoutes(auth, runInsight({ chatbots, conversations: conversationRows, stores })))
    .use(modelTestRoutes(auth, modelTest({ settingsOf: chatbots.modelSettings, outbound, timeoutMs: autopilotTuning?.modelTimeoutMs ?? DEFAULT_MODEL_TIMEOUT_MS, ca: mcpTuning?.ca })))
    .use(restApiChannelRoutes(auth, restApiIn, restApiOut))
    .use(chatappChannelRoutes(auth, chatappOut, chatappIn))
    .use(team.routes)
    .use(deskRoutes(auth, deskWork))
    .use(knowledgeBase.routes(auth))
    .use(labelRoutes(auth, labels))
    .use(businessHoursRoutes(auth, hours))

  // WhatsApp Flow JSON documents reach 10 MB; the provider's webhooks are signed over their exact bytes.
  const bodyLimits: BodyLimit[] = [
    { path: /^\/hooks\/chatapp\//, bytes: DEFAULT_BODY_LIMIT, keepRaw: true },
    { path: /\/flows(\/|$)/, bytes: 16 * 1024 * 1024, shape: { maxDepth: 64, maxKeys: 1_000_000 } },
    { path: /^\/api\/dev\/v1\/auth\//, bytes: 16 * 1024 },
    { path: /^\/widget\/v1\/attachments$/, bytes: config.attachmentMaxBytes, raw: true, tooLarge: (request) => web.uploads.tooLarge(uploadCredentials(request), declaredBodyBytes(request)) },
    ...deskUploadBodies(config.attachmentMaxBytes),
    ...restApiMessageBodies(config.attachmentMaxBytes),
    ...knowledgeBase.bodyLimits,
  ]
  const http = new Elysia({ normalize: false })
  const allowedMethods = routeMethods(() => http.routes)
  const proxies = trustedProxies(config.trustedProxies)
  const metrics = metricsRegistry()
  const observeRequest = httpMetrics(metrics, () => http.routes)
  const stopAppMetrics = appMetrics({
    registry: metrics,
    events,
    version: VERSION,
    widgetSockets: () => web.hub.size,
    deskSockets: () => deskSockets.openCount(),
    outboxPending: outboxStore(db).pendingByKind,
    databaseBytes: sqliteDatabaseBytes(db),
    walBytes: () => fileBytes(`${db.filename}-wal`),
    backups: running.backups.status,
  })

  http
    .onParse(
      jsonBodyParser(
        bodyLimits,
        (request, path) => {
          // A visitor's file is read only for a live socket's token, from an allowed page.
          if (path === UPLOAD_PATH && request.method === 'POST') {
            return sessionCookies.preload(request).then(() => web.uploads.check(uploadCredentials(request, sessionCookies.isTeamPage))).then(() => {})
          }
          if (path.startsWith('/api/dev/v1/')) return sessionCookies.admitsWithoutKey(request, path).then((admitted) => (admitted ? undefined : checkKey(request).then(() => {})))
        },
      ),
    )
    .onError(({ code, error, request }) => renderError({ code, error, request, allowedMethods, logger }))
    .onTransform(({ request, path }) => {
      if (path.startsWith('/api/')) refuseRepeatedQueryParameters(request)
    })
    .use(running.publicRoutes)
    .use(metricsRoutes({ token: config.metricsToken, proxies, render: metrics.render }))
    .use(docsRoutes(() => http.routes, config.publicUrl))
    .use(flowSchemaRoutes(config.publicUrl))
    .use(widgetConfigRoutes(findWebIntegration, config.publicRatePerMinute))
    .use(webUploadRoutes(web.uploads, sessionCookies.isTeamPage))
    .use(devApi)
    .use(chatappWebhookRoutes(integrations, chatappIn, config.publicRatePerMinute))
    .use(tools.publicRoutes)
    .use(attachmentRoutes(attachments, config.publicRatePerMinute))
    .use(widgetPreviewRoutes())
    .use(widgetAssetRoutes({ demoWidgetKey: () => demo.widgetKey(), publicUrl: config.publicUrl, bootConfigFor: bootConfigFor(findWebIntegration) }))
    .use(appAssetRoutes())

  /** Run at shutdown, after the listener stops: each domain releases what it holds open. */
  const closers: (() => void | Promise<void>)[] = [() => chatappIn.close(), () => autopilot.close(), () => deskSockets.close(), stopDeskAnnouncements, () => deskSearch.close(), () => chatappOut.close(), () => restApiOut.close(), () => web.close(), tools.close, running.close, stopAppMetrics]
  closers.push(knowledgeBase.close)

  return {
    http,
    /** The largest body any route takes: the listener refuses bigger ones before reading them. */
    maxBodyBytes: Math.max(DEFAULT_BODY_LIMIT, ...bodyLimits.map((limit) => limit.bytes)),
    /** The HTTP entry point: the app with request ids, request logs and security headers, a write answered once it is committed. */
    fetch: loggedFetch(answerAfterCommit((request) => http.fetch(request), batch, logger), logger, securityHeaders(config), observeRequest),
    /** Which peers are reverse proxies whose forwarding headers name the client (the listener reads it). */
    proxies,
    services: { attachments, autopilot, workspaces, chatbots, integrations, flows, conversations, visitors, desk, demo, people, sessions, mcp, deskWork, feed, deskSearch },
    events,
    // A socket opened with the session cookie (the console's preview, the desk) has its session looked up first.
    socket: { ...web.socket, upgrade: sessionFirst(sessionCookies, web.socket.upgrade) },
    deskSocket: { ...deskSockets, upgrade: sessionFirst(sessionCookies, deskSockets.upgrade) },
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

/** Whether the team can write to the contact: an e-mail among their details, or as who they identified as. */
function knowsEmail(contact: { external_id: string | null; details: Record<string, unknown> } | null | undefined): boolean {
  if (!contact) return false
  return Boolean(contact.external_id?.includes('@')) || (typeof contact.details.email === 'string' && contact.details.email.includes('@'))
}

/** A file's size, 0 when it is not there (the WAL between checkpoints that removed it). */
function fileBytes(file: string): number {
  try {
    return statSync(file).size
  } catch {
    return 0
  }
}
