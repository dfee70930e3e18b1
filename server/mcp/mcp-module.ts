import { Elysia } from 'elysia'
import type { Units } from '../db/units.ts'
import type { McpOAuthState } from '../integrations/mcp-integration.ts'
import type { McpIntegrations } from '../integrations/mcp-integrations.ts'
import type { IntegrationRow } from '../integrations/model.ts'
import type { Authenticate } from '../people/authenticate.ts'
import type { Clock } from '../support/clock.ts'
import type { EventBus } from '../events/domain-events.ts'
import type { Logger } from '../support/logger.ts'
import type { OutboundUrlPolicy } from '../support/outbound-url.ts'
import type { CatalogueStore } from './catalogue-store.ts'
import { type McpTuning, mcpService } from './mcp-service.ts'
import { mcpOAuthCallbackRoutes, mcpOAuthRoutes } from './oauth-routes.ts'
import { mcpOAuth } from './oauth-service.ts'
import type { OAuthStore } from './oauth-store.ts'
import { mcpServerRoutes } from './routes.ts'

type McpStores = { mcpOAuth: OAuthStore; mcpCatalogues: CatalogueStore }

export interface McpModuleDeps {
  integrations: McpIntegrations
  /** What an integration's OAuth grant says (made before the integrations, which show it). */
  oauthStateOf: (row: IntegrationRow) => Promise<McpOAuthState>
  stores: McpStores
  units: Units<McpStores>
  outbound: OutboundUrlPolicy
  events: EventBus
  now: Clock
  logger: Logger
  publicUrl: string
  publicRatePerMinute: number
  tuning?: McpTuning & { ca?: string }
}

export type McpModule = ReturnType<typeof mcpModule>

/** The chatbots' tool servers: connections, tool catalogues and calls, and the OAuth that opens them. */
export function mcpModule({ integrations, oauthStateOf, stores, units, outbound, events, now, logger, publicUrl, publicRatePerMinute, tuning }: McpModuleDeps) {
  const oauth = mcpOAuth({ integrations, stores, units, policy: outbound, now, publicUrl, logger, ca: tuning?.ca })
  const mcp = mcpService({
    integrations,
    stores,
    units,
    policy: outbound,
    events,
    now,
    logger,
    oauth: { providerFor: oauth.providerFor, stateOf: oauthStateOf, wantedScopeOf: oauth.wantedScopeOf },
    tuning,
  })
  return {
    mcp,
    routes: (auth: Authenticate) => new Elysia().use(mcpServerRoutes(auth, mcp)).use(mcpOAuthRoutes(auth, oauth)),
    /** The OAuth redirect back from a tool server's authorization page: no key, limited per address. */
    publicRoutes: mcpOAuthCallbackRoutes(oauth, publicRatePerMinute),
    close: () => mcp.close(),
  }
}
