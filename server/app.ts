import type { Database } from 'bun:sqlite'
import { Elysia } from 'elysia'
import { chatbotRoutes } from './chatbots/routes.ts'
import { chatbotService } from './chatbots/service.ts'
import { chatbotStore } from './chatbots/store.ts'
import type { Config } from './config.ts'
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
import { widgetAssetRoutes } from './widget-assets/routes.ts'
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

  const devApi = new Elysia({ prefix: '/api/dev/v1' }).use(chatbotRoutes(auth, chatbots))

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
    .use(devApi)
    // demoWidgetKey: the demo chatbot's widget key once first start creates its web integration.
    .use(widgetAssetRoutes({ demoWidgetKey: () => null }))

  /** Run at shutdown, after the listener stops: each domain releases what it holds open. */
  const closers: (() => void | Promise<void>)[] = []

  return {
    http,
    services: { workspaces, chatbots },
    events,
    async close() {
      for (const close of closers.reverse()) await close()
    },
  }
}

export type App = ReturnType<typeof createApp>
