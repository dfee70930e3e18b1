import { chatRuntime } from 'virtual:parley-chat-runtime'
import type { ChatWindow } from './components/ChatWindow.tsx'

/** What widget-chat.js hands back once it has run. */
export interface ChatModule {
  ChatWindow: typeof ChatWindow
}

/** The build's hash of widget-chat.js: a new widget.js never runs a cached older chat script. */
declare const __PARLEY_CHAT_VERSION__: string

/**
 * Loads widget-chat.js as a classic script from the Parley server. It takes the Solid
 * runtime from this script, handed to it on its own script element rather than through a
 * global of the page, and hands its exports back the same way.
 */
export function loadChat(serverUrl: string): Promise<ChatModule> {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script')
    script.src = `${serverUrl}/widget-chat.js?v=${__PARLEY_CHAT_VERSION__}`
    script.async = true
    Object.assign(script, { parleyRuntime: { ...chatRuntime, loaded: resolve } })
    script.onerror = () => {
      script.remove()
      reject(new Error(`could not load ${script.src}`))
    }
    document.head.appendChild(script)
  })
}
