import { chooseLocale } from '../../server/protocol/widget-locales.ts'
import type { WidgetBootConfig } from '../../server/protocol/widget-protocol.ts'
import type { ProfileListener, VisitorProfile } from './api.ts'
import { browserLanguages } from './browser-languages.ts'
import { BOOT_CONFIG_KEY, cachedBootConfig, loadBootConfig, WidgetRefused } from './boot-config.ts'
import type { EmbedOptions } from './embed-options.ts'
import type { LiveHandle, LiveModule, LiveWidget } from './live-handle.ts'
import { loadScript } from './load-script.ts'
import { resolveSettings } from './settings.ts'
import { drawShell } from './shell.ts'
import { browserStore } from './storage.ts'
import { watchVisibility } from './visibility.ts'

/** The build's hash of widget-live.js: a new widget.js never runs a cached older one. */
declare const __PARLEY_LIVE_VERSION__: string

/**
 * After the script found its key: the bubble first, the rest after. A returning visitor's
 * bubble is drawn at once from the configuration the last visit stored (public settings only,
 * kept per widget key), and the server is asked again once it is on screen; a first visit's is
 * drawn from the configuration the script came with (/widget.js?key=...), else when the server
 * answers. Right after the bubble's frame (or at once when it is clicked) widget-live.js
 * comes: the session, the socket, the language, the preview and the chat window. The server's
 * answer wins: the same, nothing changes; other settings, they are drawn in place (the same
 * bubble, the conversation stays); another socket or a refusal (the key revoked, the site no
 * longer allowed), the widget goes, and comes back with the new configuration if any.
 */
export async function startWidget(
  options: EmbedOptions,
  profile: VisitorProfile,
  listen: (listener: ProfileListener) => void,
  warn: (message: string) => void,
): Promise<void> {
  const prefix = `parley:${options.widgetKey}:`
  const memory = browserStore('localStorage', prefix)
  const tabMemory = browserStore('sessionStorage', prefix)
  const ask = () => loadBootConfig(options.serverUrl, options.widgetKey, warn)
  const refused = (error: unknown) => {
    const reason = error instanceof Error ? error.message : String(error)
    warn(error instanceof WidgetRefused ? `the server refused this widget: ${reason}` : `could not load the widget: ${reason}`)
  }
  const remember = (boot: WidgetBootConfig) => memory.set(BOOT_CONFIG_KEY, JSON.stringify(boot))
  // The script's own copy (/widget.js?key=...) is as fresh as the server's answer: nothing to ask.
  const { given } = options
  const kept = cachedBootConfig(memory)
  const cached = given ? null : kept
  // A first visit asks at once. A returning visitor's bubble is drawn first and the server
  // asked after (starting a request takes the page's thread a few milliseconds the bubble
  // need not wait for), unless the page is still loading: then it asks while it waits.
  const early = !given && (!cached || document.readyState === 'loading') ? ask() : undefined
  // Awaited below, maybe only after a refusal has come: not an unhandled rejection meanwhile.
  early?.catch(() => {})
  let boot = given ?? cached
  if (!boot) {
    try {
      boot = await (early as Promise<WidgetBootConfig>)
    } catch (error) {
      return refused(error)
    }
  }
  await domReady()
  let widget = show(boot)
  // What is not needed for the bubble waits until its frame is drawn (a storage write, a request's start).
  await afterPaint()
  if (!cached) return JSON.stringify(boot) === JSON.stringify(kept) ? undefined : remember(boot)
  let answer: WidgetBootConfig
  try {
    answer = await (early ?? ask())
  } catch (error) {
    // Unreachable for now: the stored widget stays (its socket retries). Refused: it goes.
    if (!(error instanceof WidgetRefused)) return
    memory.set(BOOT_CONFIG_KEY, null)
    widget.remove()
    return refused(error)
  }
  if (JSON.stringify(answer) === JSON.stringify(cached)) return
  remember(answer)
  if (answer.socket_path === cached.socket_path) return widget.redraw(answer)
  widget.remove()
  widget = show(answer)

  function show(config: WidgetBootConfig) {
    let settings = resolveSettings(config.widget_config)
    const language = () => chooseLocale(settings.locale, browserLanguages())
    // Open on the previous page of this tab: the bubble is drawn open. The tab's storage is
    // read only when that can be (a kept configuration, a chat opened here before): a first
    // read of it can cost the bubble milliseconds.
    const shell = drawShell(settings, language(), kept !== null && memory.get('opened') === '1' && tabMemory.get('open') === '1')
    const visibility: ((visible: boolean) => void)[] = []
    const handle: LiveHandle = {
      options,
      profile,
      listen,
      warn,
      memory,
      tabMemory,
      shell,
      config,
      settings,
      visible: true,
      onVisible: (listener) => visibility.push(listener),
      openWanted: false,
    }
    const watch = () =>
      watchVisibility(window, settings.allowed_paths, (visible) => {
        handle.visible = visible
        shell.host.style.display = visible ? '' : 'none'
        for (const listener of visibility) listener(visible)
      })
    let unwatch = watch()
    shell.onClick(() => {
      handle.openWanted = true
      void start()
    })
    let live: LiveWidget | undefined
    let removed = false
    let loading: Promise<void> | undefined
    const start = () =>
      (loading ??= loadScript<LiveModule>(`${options.serverUrl}/widget-live.js?v=${__PARLEY_LIVE_VERSION__}`, {}).then(
        ({ startLive }) => {
          if (!removed) live = startLive(handle)
        },
        (error: Error) => {
          // The next click tries again.
          loading = undefined
          handle.openWanted = false
          warn(`${error.message}; the chat cannot open`)
        },
      ))
    // The rest once the bubble's frame is on screen: its script's run never delays the bubble.
    void afterPaint().then(start)
    return {
      redraw(next: WidgetBootConfig) {
        settings = resolveSettings(next.widget_config)
        handle.config = next
        handle.settings = settings
        shell.restyle(settings)
        shell.speak(language())
        unwatch()
        unwatch = watch()
        live?.redraw(next, settings)
      },
      remove() {
        removed = true
        unwatch()
        live?.remove()
        shell.remove()
      },
    }
  }
}

/** Once the next frame is drawn (or after 100 ms: a tab in the background draws no frames). */
function afterPaint(): Promise<void> {
  return new Promise((resolve) => {
    requestAnimationFrame(() => setTimeout(resolve))
    setTimeout(resolve, 100)
  })
}

function domReady(): Promise<void> {
  if (document.readyState !== 'loading') return Promise.resolve()
  return new Promise((resolve) => document.addEventListener('DOMContentLoaded', () => resolve(), { once: true }))
}
