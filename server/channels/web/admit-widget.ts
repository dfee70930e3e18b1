import { isOriginAllowed } from './origin-check.ts'
import type { FindWebIntegration, WebIntegration } from './web-directory.ts'

export type WidgetRefusal = 'unknown_widget_key' | 'origin_not_allowed' | 'integration_inactive'

/** How the HTTP routes (the configuration, the uploads) answer each refusal. */
export const REFUSAL_STATUSES: Record<WidgetRefusal, { status: 403 | 404; code: string }> = {
  unknown_widget_key: { status: 404, code: 'not_found' },
  origin_not_allowed: { status: 403, code: 'origin_not_allowed' },
  integration_inactive: { status: 403, code: 'integration_inactive' },
}

export type WidgetAdmission =
  | { admitted: true; integration: WebIntegration }
  | { admitted: false; refusal: WidgetRefusal; reason: string }

/** Longest part of a page's Origin quoted back: a close reason holds at most 123 bytes. */
const QUOTED_ORIGIN_LENGTH = 40

/** Whether the request is the chatbot's own team on Parley's pages (the console's preview); asked only when allowed_domains refuse the Origin. */
export type IsTeamPage = (integration: WebIntegration) => boolean

/** The same question asked of a request: a live session of a person of `workspaceId`, from Parley's own Origin. */
export type TeamPageCheck = (request: Request, workspaceId: string) => boolean

/** The request's IsTeamPage, or none. */
export const teamPageOf = (request: Request, check: TeamPageCheck | undefined): IsTeamPage | undefined =>
  check && ((integration) => check(request, integration.workspaceId))

/**
 * The one rule that lets a page use a widget, for the configuration route, the socket and the
 * uploads alike: the key must name a web integration, the page's Origin must pass its
 * allowed_domains (or the page be the team's own, `isTeamPage`), and the integration must be
 * switched on. The Origin is checked before the switch so that a foreign page learns nothing
 * about an integration it may not load.
 */
export function admitWidget(findIntegration: FindWebIntegration, widgetKey: string, origin: string | null, isTeamPage?: IsTeamPage): WidgetAdmission | Promise<WidgetAdmission> {
  const found = widgetKey ? findIntegration(widgetKey) : null
  return found instanceof Promise ? found.then((integration) => admission(integration, origin, isTeamPage)) : admission(found, origin, isTeamPage)
}

function admission(integration: WebIntegration | null, origin: string | null, isTeamPage: IsTeamPage | undefined): WidgetAdmission {
  if (!integration) return { admitted: false, refusal: 'unknown_widget_key', reason: 'no widget has this key' }
  if (!isOriginAllowed(integration.allowedDomains, origin) && !isTeamPage?.(integration)) {
    return { admitted: false, refusal: 'origin_not_allowed', reason: `origin ${quoted(origin)} may not load this widget` }
  }
  if (!integration.isActive) return { admitted: false, refusal: 'integration_inactive', reason: 'this chat is switched off' }
  return { admitted: true, integration }
}

function quoted(origin: string | null): string {
  if (origin === null) return '(none)'
  return origin.length > QUOTED_ORIGIN_LENGTH ? `${origin.slice(0, QUOTED_ORIGIN_LENGTH)}…` : origin
}
