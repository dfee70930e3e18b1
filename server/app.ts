import type { Database } from 'bun:sqlite'
import { Elysia } from 'elysia'
import { webChannel } from './channels/web/web-channel.ts'
import { widgetConfigRoutes } from './channels/web/config-routes.ts'
import { chatbotRoutes } from './chatbots/routes.ts'
import { chatbotService } from './chatbots/service.ts'
import { chatbotStore } from './chatbots/store.ts'
import type { Config } from './config.ts'
import { agentService } from './conversations/agent-service.ts'
import { contactStore } from './conversations/contact-store.ts'
import { conversationStore } from './conversations/conversation-store.ts'
import { messageStore } from './conversations/message-store.ts'
import { conversationRoutes } from './conversations/routes.ts'
import { conversationService } from './conversations/service.ts'
import { visitorService } from './conversations/visitor-service.ts'
import { docsRoutes } from './docs/routes.ts'
import { healthRoutes } from './health/routes.ts'
import { authenticate } from './http/authenticate.ts'
import { jsonBodyParser } from './http/json-body.ts'
import { rateLimiter } from './http/rate-limiter.ts'
import { renderError } from './http/render-error.ts'
import { beginRequest, requestContext } from './http/request-context.ts'
import { routeMethods } from './http/route-methods.ts'
import { type Clock, systemClock } from './support/clock.ts'
import { eventBus } from './support/events.ts'
import type { Logger } from './support/logger.ts'
import { workspaceService } from './workspaces/service.ts'
import { workspaceStore } from './workspaces/store.ts'

export interface AppDeps {
  db: Database
  config: Config
  logger: Logger
  now?: Clock
}

/**
 * The one composition root: builds every store and service over one database and mounts
 * their routes behind one error renderer. Nothing else constructs domain objects.
 */
export function createApp({ db, config, logger, now = systemClock }: AppDeps) {
  const events = eventBus()
  const workspaces = workspaceService(workspaceStore(db), now)
  const chatbots = chatbotService({ store: chatbotStore(db), now, events, flowKind: () => undefined })
  const auth = authenticate(workspaces, rateLimiter(config.rateLimitPerMinute))
  const transaction = <T>(work: () => T): T => db.transaction(work).immediate()

  const contacts = contactStore(db)
  const conversationRows = conversationStore(db)
  const messages = messageStore(db)
  // Wired to the flows and integrations domains once they land.
  const snapshots = { entry: () => null, version: () => null }
  const findWebIntegration = () => null
  const conversations = conversationService({ contacts, conversations: conversationRows, messages, snapshots, events, now, transaction })
  const visitors = visitorService(contacts, now)
  const desk = agentService({ chatbots, conversations: conversationRows, contacts, messages, lifecycle: conversations, events })
  const web = webChannel({ findIntegration: findWebIntegration, visitors, conversations, events, logger })

  const devApi = new Elysia({ prefix: '/api/dev/v1' })
    .use(chatbotRoutes(auth, chatbots))
    .use(conversationRoutes(auth, desk))

  const http = new Elysia({ normalize: false })
  const allowedMethods = routeMethods(() => http.routes)

  http
    .onRequest(({ request, set }) => {
      set.headers['x-request-id'] = beginRequest(request).id
    })
    .onParse(jsonBodyParser())
    .onError(({ code, error, request }) => renderError({ code, error, request, allowedMethods, logger }))
    .onAfterResponse(({ request, path, set }) => {
      const context = requestContext(request)
      if (!context) return
      logger.info('request', {
        method: request.method,
        path,
        status: context.status ?? Number(set.status ?? 200),
        duration_ms: Math.round((performance.now() - context.startedAt) * 100) / 100,
        request_id: context.id,
      })
    })
    .use(healthRoutes(db))
    .use(docsRoutes(() => http.routes, config.publicUrl))
    .use(widgetConfigRoutes(findWebIntegration))
    .use(devApi)

  /** Run at shutdown, after the listener stops: each domain releases what it holds open. */
  const closers: (() => void | Promise<void>)[] = [() => web.close()]

  return {
    http,
    services: { workspaces, chatbots, conversations, desk },
    events,
    socket: web.socket,
    hub: web.hub,
    async close() {
      for (const close of closers.reverse()) await close()
    },
  }
}

export type App = ReturnType<typeof createApp>
