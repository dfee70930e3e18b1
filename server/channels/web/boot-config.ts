import type { WidgetBootConfig } from '../../protocol/widget-protocol.ts'
import { admitWidget } from './admit-widget.ts'
import type { FindWebIntegration, WebIntegration } from './web-directory.ts'
import { SOCKET_PATH } from './widget-socket.ts'

/** What GET /widget/v1/config/{key} answers for an admitted widget. */
export function bootConfigOf(integration: WebIntegration, widgetKey: string): WidgetBootConfig {
  return {
    name: integration.name,
    greeting_message: integration.greetingMessage,
    widget_config: integration.widgetConfig,
    socket_path: `${SOCKET_PATH}?key=${encodeURIComponent(widgetKey)}`,
  }
}

/**
 * The configuration to put inside /widget.js?key=... for a page of `origin`, or null when that
 * page would be refused (unknown key, origin not allowed, switched off) or is not known (no
 * Referer): the script then asks /widget/v1/config as before, which says why.
 */
export function bootConfigFor(findIntegration: FindWebIntegration) {
  return async (widgetKey: string, origin: string | null): Promise<WidgetBootConfig | null> => {
    if (origin === null) return null
    const admission = await admitWidget(findIntegration, widgetKey, origin)
    return admission.admitted ? bootConfigOf(admission.integration, widgetKey) : null
  }
}
