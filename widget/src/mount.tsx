import { render } from 'solid-js/web'
import type { WidgetConfigValues } from '../../server/protocol/widget-config-defaults.ts'
import { App } from './components/App.tsx'
import type { ChatModule } from './load-chat.ts'
import type { Session } from './session.ts'
import type { Speech } from './speech.ts'
import css from './styles.css?inline'

/**
 * The widget's own element at the end of <body>, with an open Shadow DOM: the page's CSS
 * cannot reach in and the widget's cannot leak out.
 */
export function mountWidget(
  session: Session,
  settings: WidgetConfigValues,
  greeting: string | null,
  chat: { stylesheet: string; load: () => Promise<ChatModule> },
  warn: (message: string) => void,
  speech: () => Speech,
): MountedWidget {
  const host = document.createElement('div')
  host.id = 'parley-widget'
  host.setAttribute('data-parley-widget', '')
  const shadow = host.attachShadow({ mode: 'open' })
  document.body.appendChild(host)
  const draw = (values: WidgetConfigValues, text: string | null) =>
    render(() => <App session={session} settings={values} speech={speech()} greeting={text} css={css} chatStylesheet={chat.stylesheet} loadChat={chat.load} warn={warn} />, shadow)
  let dispose = draw(settings, greeting)
  return {
    host,
    redraw(values, text) {
      dispose()
      dispose = draw(values, text)
    },
    remove() {
      dispose()
      host.remove()
    },
  }
}

export interface MountedWidget {
  host: HTMLElement
  /** Draws the widget again with other settings (the session, and so the conversation, stays). */
  redraw(settings: WidgetConfigValues, greeting: string | null): void
  remove(): void
}
