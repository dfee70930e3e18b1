import type { WidgetConfig } from '../../protocol/widget-config.ts'

/** What the web channel needs to know about a web integration, found by its widget key. */
export interface WebIntegration {
  integrationId: string
  chatbotId: string
  workspaceId: string
  isActive: boolean
  name: string
  allowedDomains: string[]
  widgetConfig: WidgetConfig
  greetingMessage: string | null
  identitySecret: string | null
  defaultCountry: string | null
}

export type FindWebIntegration = (widgetKey: string) => WebIntegration | null
