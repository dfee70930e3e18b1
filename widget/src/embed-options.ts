import type { WidgetBootConfig } from '../../server/protocol/widget-protocol.ts'
import { isBootConfig } from './boot-config.ts'

/**
 * Finding the widget's own script element and reading its attributes. Injected scripts run
 * with document.currentScript null, so then the first script carrying data-widget-key is used.
 */

export interface EmbedOptions {
  widgetKey: string
  /** Origin of the Parley server: data-server-url, else the origin of the script's src. */
  serverUrl: string
  /** The configuration the script came with (/widget.js?key=...), when it is this key's and this server's. */
  given?: WidgetBootConfig
}

interface ScriptLike {
  getAttribute(name: string): string | null
  src?: string
  /** Put on the element by the configuration in front of /widget.js?key=... (server/widget-assets/keyed-widget-script.ts). */
  parleyBoot?: unknown
}

interface DocumentLike {
  currentScript: unknown
  querySelector(selector: string): unknown
}

const WIDGET_KEY = /^wk_[A-Za-z0-9]{8,128}$/

export function findWidgetScript(doc: DocumentLike): ScriptLike | null {
  const current = doc.currentScript as ScriptLike | null
  if (current && typeof current.getAttribute === 'function' && current.getAttribute('data-widget-key') !== null) return current
  return (doc.querySelector('script[data-widget-key]') as ScriptLike | null) ?? null
}

export function readEmbedOptions(script: ScriptLike | null): EmbedOptions | { problem: string } {
  if (!script) return { problem: 'no <script data-widget-key="wk_..."> found on the page; the widget is not shown' }
  const widgetKey = script.getAttribute('data-widget-key')?.trim() ?? ''
  if (!WIDGET_KEY.test(widgetKey)) {
    return { problem: `data-widget-key must be the wk_... key of a web integration, got "${widgetKey}"; the widget is not shown` }
  }
  const override = script.getAttribute('data-server-url')?.trim()
  const base = override || script.src || ''
  let origin: string | undefined
  try {
    const url = new URL(base)
    if (url.protocol === 'http:' || url.protocol === 'https:') origin = url.origin
  } catch {}
  if (!origin) {
    return {
      problem: override
        ? `data-server-url must be an absolute http(s) address such as https://chat.example.org, got "${override}"`
        : 'cannot tell the server address: load the script with src="https://.../widget.js" or add data-server-url',
    }
  }
  const given = givenBootConfig(script, widgetKey, origin)
  return given ? { widgetKey, serverUrl: origin, given } : { widgetKey, serverUrl: origin }
}

/** The configuration the script carried, if it is for this key and came from this server (not another's data-server-url). */
function givenBootConfig(script: ScriptLike, widgetKey: string, serverUrl: string): WidgetBootConfig | undefined {
  const carried = script.parleyBoot as { key?: unknown; boot?: unknown } | undefined
  if (!carried || carried.key !== widgetKey || !isBootConfig(carried.boot)) return undefined
  try {
    return new URL(script.src ?? '').origin === serverUrl ? carried.boot : undefined
  } catch {
    return undefined
  }
}
