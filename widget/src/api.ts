import { type ContactDetails, normalizeContactDetails } from './contact-details.ts'
import { checkIdentity } from './identity.ts'

/** Who the visitor is, as the page told us; read afresh for every hello. */
export interface VisitorProfile {
  userId?: string
  userHash?: string
  contactDetails: ContactDetails
}

/** The widget's session, once it exists: told about changes so it can act on them. */
export interface ProfileListener {
  identityChanged(): void
  contactDetailsChanged(changes: ContactDetails): void
}

export interface WidgetApi {
  identify(userId: string, options?: { hash?: string }): void
  setContactDetails(details: Record<string, unknown>): void
  readonly loaded: true
}

type Warn = (message: string) => void
const warnInConsole: Warn = (message) => console.warn(`ParleyWidget: ${message}`)

/**
 * window.ParleyWidget: the checks run at once (with console warnings); the values are kept in
 * the profile until the session is listening, which is how calls queue until the socket connects.
 */
export function createWidgetApi(profile: VisitorProfile, warn: Warn = warnInConsole) {
  let listener: ProfileListener | undefined
  const api: WidgetApi = {
    loaded: true,
    identify(userId, options) {
      const check = checkIdentity(userId, options)
      if (!check.ok) return warn(`${check.problem}; the visitor stays as before`)
      for (const warning of check.warnings) warn(warning)
      if (profile.userId === check.userId && profile.userHash === check.hash) return
      profile.userId = check.userId
      profile.userHash = check.hash
      listener?.identityChanged()
    },
    setContactDetails(details) {
      const { changes, warnings } = normalizeContactDetails(details, profile.contactDetails)
      for (const warning of warnings) warn(warning)
      if (Object.keys(changes).length === 0) return
      Object.assign(profile.contactDetails, changes)
      listener?.contactDetailsChanged(changes)
    },
  }
  return {
    api,
    listen(next: ProfileListener) {
      listener = next
    },
  }
}

type QueuedCall = [string, ArrayLike<unknown>]

/** True once a widget script has installed its API on this page. */
export function isWidgetInstalled(win: object): boolean {
  const existing = (win as { ParleyWidget?: { loaded?: unknown } }).ParleyWidget
  return typeof existing === 'object' && existing !== null && existing.loaded === true
}

/**
 * Puts the API on `win.ParleyWidget`, keeping the object the page's stub made (a page may hold
 * a reference to it), then replays the calls the stub queued, in order.
 */
export function installWidgetApi(win: object, api: WidgetApi, warn: Warn = warnInConsole): void {
  const holder = win as { ParleyWidget?: unknown }
  const existing = holder.ParleyWidget
  const target = (typeof existing === 'object' && existing !== null ? existing : {}) as Record<string, unknown>
  const queue = Array.isArray(target.q) ? (target.q as QueuedCall[]) : []
  delete target.q
  target.identify = api.identify
  target.setContactDetails = api.setContactDetails
  target.loaded = true
  holder.ParleyWidget = target
  for (const call of queue) {
    const [method, args] = Array.isArray(call) ? call : []
    if (method === 'identify' || method === 'setContactDetails') {
      ;(api[method] as (...values: unknown[]) => void)(...Array.from(args ?? []))
    } else warn(`ignored a queued call to an unknown method "${String(method)}"`)
  }
}
