import { render } from 'solid-js/web'
import type { WidgetConfigValues } from '../../server/protocol/widget-config-defaults.ts'
import { App } from './components/App.tsx'
import type { ChatModule } from './load-chat.ts'
import type { Session } from './session.ts'
import type { Shell } from './shell.ts'
import type { Speech } from './speech.ts'

/** The widget's Solid part (the preview, the chat window) in the layer of the shell widget.js drew. */
export function mountWidget(
  shell: Shell,
  session: Session,
  settings: WidgetConfigValues,
  greeting: string | null,
  chat: { stylesheet: string; load: () => Promise<ChatModule> },
  warn: (message: string) => void,
  speech: () => Speech,
): MountedWidget {
  const draw = (values: WidgetConfigValues, text: string | null) =>
    render(() => <App session={session} settings={values} speech={speech()} greeting={text} shell={shell} chatStylesheet={chat.stylesheet} loadChat={chat.load} warn={warn} />, shell.layer)
  let dispose = draw(settings, greeting)
  return {
    redraw(values, text) {
      dispose()
      dispose = draw(values, text)
    },
    remove() {
      dispose()
    },
  }
}

export interface MountedWidget {
  /** Draws the widget again with other settings (the session, and so the conversation, stays). */
  redraw(settings: WidgetConfigValues, greeting: string | null): void
  remove(): void
}
