import type { WidgetBootConfig } from '../../server/protocol/widget-protocol.ts'
import { backoffDelay } from './backoff.ts'
import type { KeyValueStore } from './storage.ts'

/**
 * The configuration as the last visit got it, from the browser's storage, so that a returning
 * visitor's bubble is drawn at once; the server's answer follows and wins (start.ts). Only
 * its shape is checked: a stored value that is not one is ignored.
 */
export function cachedBootConfig(memory: KeyValueStore): WidgetBootConfig | null {
  try {
    const value: unknown = JSON.parse(memory.get(BOOT_CONFIG_KEY) ?? 'null')
    return isBootConfig(value) ? value : null
  } catch {
    return null
  }
}

/** Only the shape is checked (a kept copy or the one a script carried): the server's answer follows and wins. */
export function isBootConfig(value: unknown): value is WidgetBootConfig {
  const boot = value as Partial<WidgetBootConfig> | null
  return !!boot && typeof boot.socket_path === 'string' && !!boot.widget_config && typeof boot.widget_config === 'object'
}

export const BOOT_CONFIG_KEY = 'boot'

/** A refusal the page cannot fix by retrying: unknown or inactive key, origin not allowed. */
export class WidgetRefused extends Error {}

const TRIES = 6

/**
 * GET /widget/v1/config/{key}. A 4xx answer is final (its problem+json detail becomes the
 * console warning); a network failure or a 5xx is retried with backoff a few times.
 */
export async function loadBootConfig(
  serverUrl: string,
  widgetKey: string,
  onFirstFailure: (problem: string) => void = () => {},
  fetchImpl: typeof fetch = fetch,
): Promise<WidgetBootConfig> {
  const url = `${serverUrl}/widget/v1/config/${encodeURIComponent(widgetKey)}`
  let lastProblem = ''
  for (let attempt = 0; attempt < TRIES; attempt++) {
    if (attempt === 1) onFirstFailure(`${lastProblem}; retrying`)
    if (attempt > 0) await new Promise((resolve) => setTimeout(resolve, backoffDelay(attempt)))
    let response: Response
    try {
      response = await fetchImpl(url, { credentials: 'omit', headers: { accept: 'application/json' } })
    } catch (error) {
      lastProblem = `cannot reach ${serverUrl} (${error instanceof Error ? error.message : String(error)})`
      continue
    }
    if (response.ok) return (await response.json()) as WidgetBootConfig
    const detail = await problemDetail(response)
    if (response.status >= 400 && response.status < 500) throw new WidgetRefused(detail)
    lastProblem = detail
  }
  throw new Error(`${lastProblem}; gave up after ${TRIES} tries`)
}

async function problemDetail(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { detail?: unknown; title?: unknown }
    const text = body.detail ?? body.title
    if (typeof text === 'string' && text) return `${text} (HTTP ${response.status})`
  } catch {}
  return `the server answered HTTP ${response.status}`
}
