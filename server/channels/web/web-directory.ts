import type { WebChannel } from '../../integrations/channel-lookups.ts'

/** What the web channel knows of a web integration, found by its widget key. */
export type WebIntegration = WebChannel

/** At once when the integration was read lately (the socket's upgrade then waits for nothing), else once read. */
export type FindWebIntegration = (widgetKey: string) => WebIntegration | null | Promise<WebIntegration | null>
