import type { ProfileListener, VisitorProfile } from './api.ts'
import { loadBootConfig, WidgetRefused } from './boot-config.ts'
import { UPLOAD_PATH } from '../../server/protocol/upload-rules.ts'
import { socketUrl } from './connection.ts'
import type { EmbedOptions } from './embed-options.ts'
import { loadChat } from './load-chat.ts'
import { mountWidget } from './mount.tsx'
import { createSession } from './session.ts'
import { resolveSettings } from './settings.ts'
import { browserStore } from './storage.ts'
import { watchVisibility } from './visibility.ts'

/**
 * After the script found its key: fetch the public configuration, draw the widget in its
 * Shadow DOM, connect, and follow navigation (allowed_paths) and the network.
 */
export async function startWidget(
  options: EmbedOptions,
  profile: VisitorProfile,
  listen: (listener: ProfileListener) => void,
  warn: (message: string) => void,
): Promise<void> {
  let boot
  try {
    boot = await loadBootConfig(options.serverUrl, options.widgetKey, warn)
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    warn(error instanceof WidgetRefused ? `the server refused this widget: ${reason}` : `could not load the widget: ${reason}`)
    return
  }
  const settings = resolveSettings(boot.widget_config)
  const prefix = `parley:${options.widgetKey}:`
  const session = createSession({
    socketUrl: socketUrl(options.serverUrl, boot.socket_path),
    uploadUrl: `${options.serverUrl}${UPLOAD_PATH}?key=${encodeURIComponent(options.widgetKey)}`,
    profile,
    memory: browserStore('localStorage', prefix),
    tabMemory: browserStore('sessionStorage', prefix),
    // Origin and path only: query strings may carry tokens that agents should never see.
    pageUrl: () => `${location.origin}${location.pathname}`,
    warn,
  })
  listen(session.listener)
  await domReady()
  // The view asks once, and again only after a failure (components/App.tsx).
  const load = () => loadChat(options.serverUrl)
  const host = mountWidget(session, settings, boot.greeting_message, { stylesheet: `${options.serverUrl}/widget-chat.css`, load }, warn)
  watchVisibility(window, settings.allowed_paths, (visible) => {
    host.style.display = visible ? '' : 'none'
    session.setActive(visible)
  })
  window.addEventListener('online', session.retryNow)
}

function domReady(): Promise<void> {
  if (document.readyState !== 'loading') return Promise.resolve()
  return new Promise((resolve) => document.addEventListener('DOMContentLoaded', () => resolve(), { once: true }))
}
