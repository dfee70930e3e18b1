import { chatRuntime } from 'virtual:parley-chat-runtime'
import type { ChatWindow } from './components/ChatWindow.tsx'
import { loadScript } from './load-script.ts'

/** What widget-chat.js hands back once it has run. */
export interface ChatModule {
  ChatWindow: typeof ChatWindow
}

/** The build's hash of widget-chat.js: a new widget-live.js never runs a cached older chat script. */
declare const __PARLEY_CHAT_VERSION__: string

/**
 * Loads widget-chat.js as a classic script from the Parley server. It takes the Solid
 * runtime from widget-live.js, handed to it on its own script element rather than through a
 * global of the page, and hands its exports back the same way.
 */
export function loadChat(serverUrl: string): Promise<ChatModule> {
  return loadScript(`${serverUrl}/widget-chat.js?v=${__PARLEY_CHAT_VERSION__}`, chatRuntime)
}
