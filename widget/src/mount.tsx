import { render } from 'solid-js/web'
import type { WidgetConfigValues } from '../../server/protocol/widget-config-defaults.ts'
import { App } from './components/App.tsx'
import type { ChatModule } from './load-chat.ts'
import type { Session } from './session.ts'
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
): HTMLElement {
  const host = document.createElement('div')
  host.id = 'parley-widget'
  host.setAttribute('data-parley-widget', '')
  const shadow = host.attachShadow({ mode: 'open' })
  document.body.appendChild(host)
  render(() => <App session={session} settings={settings} greeting={greeting} css={css} chatStylesheet={chat.stylesheet} loadChat={chat.load} warn={warn} />, shadow)
  return host
}
