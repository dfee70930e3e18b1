import type { ProfileListener, VisitorProfile } from './api.ts'
import { BOOT_CONFIG_KEY, cachedBootConfig, loadBootConfig, WidgetRefused } from './boot-config.ts'
import { UPLOAD_PATH } from '../../server/protocol/upload-rules.ts'
import type { WidgetBootConfig } from '../../server/protocol/widget-protocol.ts'
import { socketUrl } from './connection.ts'
import type { EmbedOptions } from './embed-options.ts'
import { loadChat } from './load-chat.ts'
import { mountWidget } from './mount.tsx'
import { createSession } from './session.ts'
import { resolveSettings } from './settings.ts'
import { createSignal } from 'solid-js'
import { LANGUAGE_TAG_MAX_LENGTH, LANGUAGE_TAG_PATTERN } from '../../server/protocol/widget-locales.ts'
import { ENGLISH, loadSpeech, pickSpeech, type Speech } from './speech.ts'
import { browserStore } from './storage.ts'
import { watchVisibility } from './visibility.ts'

/**
 * After the script found its key: the public configuration, the widget drawn in its Shadow
 * DOM, connected, following navigation (allowed_paths) and the network. A returning visitor's
 * widget is drawn at once from the configuration the last visit stored, while the server is
 * asked again; its answer wins: the same, nothing changes; other settings, the widget is drawn
 * again with them (the conversation stays); another socket or a refusal (the key revoked, the
 * site no longer allowed), the widget goes, and comes back with the new configuration if any.
 */
export async function startWidget(
  options: EmbedOptions,
  profile: VisitorProfile,
  listen: (listener: ProfileListener) => void,
  warn: (message: string) => void,
): Promise<void> {
  const prefix = `parley:${options.widgetKey}:`
  const memory = browserStore('localStorage', prefix)
  const asked = loadBootConfig(options.serverUrl, options.widgetKey, warn)
  const refused = (error: unknown) => {
    const reason = error instanceof Error ? error.message : String(error)
    warn(error instanceof WidgetRefused ? `the server refused this widget: ${reason}` : `could not load the widget: ${reason}`)
  }
  const remember = (boot: WidgetBootConfig) => memory.set(BOOT_CONFIG_KEY, JSON.stringify(boot))
  const cached = cachedBootConfig(memory)
  let boot = cached
  if (!boot) {
    try {
      boot = await asked
    } catch (error) {
      return refused(error)
    }
    remember(boot)
  }
  let widget = await show(boot)
  if (!cached) return
  let answer: WidgetBootConfig
  try {
    answer = await asked
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
  widget = await show(answer)

  async function show(config: WidgetBootConfig) {
    let settings = resolveSettings(config.widget_config)
    const [speech, setSpeech] = createSignal<Speech>(ENGLISH)
    const languages = browserLanguages()
    // The widget's language: its texts fetched now (English is inside this script), drawn when they come.
    const speak = (locale: string) => {
      const chosen = pickSpeech(locale, languages)
      if (chosen.tag === speech().tag && chosen.intl === speech().intl) return
      loadSpeech(options.serverUrl, chosen).then(setSpeech, (error: Error) => warn(`${error.message}; the widget speaks English`))
    }
    speak(settings.locale)
    const session = createSession({
      speech,
      locale: languages.find((tag) => tag.length <= LANGUAGE_TAG_MAX_LENGTH && LANGUAGE_TAG_PATTERN.test(tag)),
      socketUrl: socketUrl(options.serverUrl, config.socket_path),
      uploadUrl: `${options.serverUrl}${UPLOAD_PATH}?key=${encodeURIComponent(options.widgetKey)}`,
      profile,
      memory,
      tabMemory: browserStore('sessionStorage', prefix),
      // Origin and path only: query strings may carry tokens that agents should never see.
      pageUrl: () => `${location.origin}${location.pathname}`,
      warn,
    })
    listen(session.listener)
    await domReady()
    // The view asks once, and again only after a failure (components/App.tsx).
    const load = () => loadChat(options.serverUrl)
    const mounted = mountWidget(session, settings, config.greeting_message, { stylesheet: `${options.serverUrl}/widget-chat.css`, load }, warn, speech)
    const watch = () =>
      watchVisibility(window, settings.allowed_paths, (visible) => {
        mounted.host.style.display = visible ? '' : 'none'
        session.setActive(visible)
      })
    let unwatch = watch()
    window.addEventListener('online', session.retryNow)
    return {
      redraw(next: WidgetBootConfig) {
        settings = resolveSettings(next.widget_config)
        speak(settings.locale)
        mounted.redraw(settings, next.greeting_message)
        unwatch()
        unwatch = watch()
      },
      remove() {
        unwatch()
        session.setActive(false)
        window.removeEventListener('online', session.retryNow)
        mounted.remove()
      },
    }
  }
}

/** The visitor's languages, most wanted first, as the browser gives them. */
function browserLanguages(): string[] {
  const list = navigator.languages?.length ? navigator.languages : [navigator.language]
  return list.filter((tag): tag is string => typeof tag === 'string' && tag !== '')
}

function domReady(): Promise<void> {
  if (document.readyState !== 'loading') return Promise.resolve()
  return new Promise((resolve) => document.addEventListener('DOMContentLoaded', () => resolve(), { once: true }))
}
