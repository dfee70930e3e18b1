import { createSignal } from 'solid-js'
import { UPLOAD_PATH } from '../../server/protocol/upload-rules.ts'
import type { WidgetConfigValues } from '../../server/protocol/widget-config-defaults.ts'
import { LANGUAGE_TAG_MAX_LENGTH, LANGUAGE_TAG_PATTERN } from '../../server/protocol/widget-locales.ts'
import { browserLanguages } from './browser-languages.ts'
import { socketUrl } from './connection.ts'
import type { LiveHandle, LiveModule, LiveWidget } from './live-handle.ts'
import { loadChat } from './load-chat.ts'
import { mountWidget } from './mount.tsx'
import { createSession } from './session.ts'
import { ENGLISH, loadSpeech, pickSpeech, type Speech } from './speech.ts'

/**
 * The entry of widget-live.js: everything of the widget but the bubble, brought to life in the
 * shell widget.js drew: the session and its socket, the widget's language, the preview of a
 * new message and (loaded on the first open, widget-chat.js) the chat window. widget.js adds
 * this script right after the bubble is on screen, and hands it the handle on its own element.
 */
function startLive(handle: LiveHandle): LiveWidget {
  const { options, shell, warn } = handle
  let settings: WidgetConfigValues = handle.settings
  const [speech, setSpeech] = createSignal<Speech>(ENGLISH)
  const languages = browserLanguages()
  // The widget's texts fetched now (English is inside this script), drawn when they come.
  const speak = (locale: string) => {
    const chosen = pickSpeech(locale, languages)
    if (chosen.tag === speech().tag && chosen.intl === speech().intl) return shell.speak(chosen.tag)
    loadSpeech(options.serverUrl, chosen).then(
      (next) => {
        setSpeech(next)
        shell.speak(next.tag)
      },
      (error: Error) => {
        warn(`${error.message}; the widget speaks English`)
        shell.speak(speech().tag)
      },
    )
  }
  speak(settings.locale)
  const session = createSession({
    speech,
    locale: languages.find((tag) => tag.length <= LANGUAGE_TAG_MAX_LENGTH && LANGUAGE_TAG_PATTERN.test(tag)),
    socketUrl: socketUrl(options.serverUrl, handle.config.socket_path),
    uploadUrl: `${options.serverUrl}${UPLOAD_PATH}?key=${encodeURIComponent(options.widgetKey)}`,
    profile: handle.profile,
    memory: handle.memory,
    tabMemory: handle.tabMemory,
    // Origin and path only: query strings may carry tokens that agents should never see.
    pageUrl: () => `${location.origin}${location.pathname}`,
    warn,
  })
  handle.listen(session.listener)
  // The view asks once, and again only after a failure (components/App.tsx).
  const chat = { stylesheet: `${options.serverUrl}/widget-chat.css`, load: () => loadChat(options.serverUrl) }
  const mounted = mountWidget(shell, session, settings, handle.config.greeting_message, chat, warn, speech)
  if (handle.openWanted) session.setOpen(true)
  let removed = false
  handle.onVisible((visible) => removed || session.setActive(visible))
  session.setActive(handle.visible)
  window.addEventListener('online', session.retryNow)
  return {
    redraw(config, next) {
      settings = next
      speak(settings.locale)
      mounted.redraw(settings, config.greeting_message)
    },
    remove() {
      removed = true
      session.setActive(false)
      window.removeEventListener('online', session.retryNow)
      mounted.remove()
    },
  }
}

const handed = (document.currentScript as unknown as { parleyRuntime: { loaded(module: LiveModule): void } }).parleyRuntime
handed.loaded({ startLive })
