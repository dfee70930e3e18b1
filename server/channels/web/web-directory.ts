import type { WebChannel } from '../../integrations/channel-lookups.ts'

/** What the web channel knows of a web integration, found by its widget key. */
export type WebIntegration = WebChannel

export type FindWebIntegration = (widgetKey: string) => WebIntegration | null
