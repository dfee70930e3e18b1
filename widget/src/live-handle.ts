import type { WidgetConfigValues } from '../../server/protocol/widget-config-defaults.ts'
import type { WidgetBootConfig } from '../../server/protocol/widget-protocol.ts'
import type { ProfileListener, VisitorProfile } from './api.ts'
import type { EmbedOptions } from './embed-options.ts'
import type { Shell } from './shell.ts'
import type { KeyValueStore } from './storage.ts'

/**
 * What widget.js (the loader: the bubble) hands widget-live.js (the rest: the session, the
 * socket, the language, the preview and the chat window) for one drawn widget.
 */
export interface LiveHandle {
  options: EmbedOptions
  profile: VisitorProfile
  listen: (listener: ProfileListener) => void
  warn: (message: string) => void
  memory: KeyValueStore
  tabMemory: KeyValueStore
  shell: Shell
  config: WidgetBootConfig
  settings: WidgetConfigValues
  /** Whether the current page's path lets the widget show (allowed_paths), now and on each change. */
  visible: boolean
  onVisible(listener: (visible: boolean) => void): void
  /** The bubble was clicked before widget-live.js had come: the chat opens once it has. */
  openWanted: boolean
}

/** A widget that widget-live.js brought to life. */
export interface LiveWidget {
  /** Other settings (the session, and so the conversation, stays). */
  redraw(config: WidgetBootConfig, settings: WidgetConfigValues): void
  remove(): void
}

/** What widget-live.js hands back once it has run. */
export interface LiveModule {
  startLive(handle: LiveHandle): LiveWidget
}
