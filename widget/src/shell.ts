import type { WidgetConfigValues } from '../../server/protocol/widget-config-defaults.ts'
import { RTL_LOCALES, type WidgetLocale } from '../../server/protocol/widget-locales.ts'
import { textColorOn } from './settings.ts'
import css from './styles.css?inline'

/** What the launcher shows once the rest of the widget (widget-live.js) drives it. */
export interface LauncherState {
  open: boolean
  unread: number
  label: string
}

/**
 * The widget's element and the bubble, drawn by widget.js with plain DOM (no Solid, no
 * session) so that the bubble is on screen before the rest of the widget has even loaded:
 * the host at the end of <body> with an open Shadow DOM (the page's CSS cannot reach in, the
 * widget's cannot leak out), the stylesheet, the root that carries every widget_config value
 * as a CSS variable, and the launcher. widget-live.js renders the preview and the chat window
 * into `layer` (before the launcher, so the tab order is the window's, then the bubble) and
 * drives the launcher through `setLauncher`.
 */
export function drawShell(settings: WidgetConfigValues, language: WidgetLocale, open: boolean): Shell {
  const host = document.createElement('div')
  host.id = 'parley-widget'
  host.setAttribute('data-parley-widget', '')
  const shadow = host.attachShadow({ mode: 'open' })
  const root = element('div')
  const style = element('style')
  style.textContent = css
  const layer = element('div')
  layer.style.display = 'contents'
  const launcher = element('button')
  launcher.type = 'button'
  launcher.className = 'launcher'
  launcher.setAttribute('aria-controls', 'parley-window')
  const icon = element('span')
  icon.style.display = 'contents'
  const icons: { chat?: SVGSVGElement; close?: SVGSVGElement } = {}
  const text = element('span')
  text.className = 'bubble-text'
  // The closed bubble's name is its content: the label (its text, and the unread count in
  // words) for screen readers, while the text and the badge's digits are what the eyes get.
  // Named by aria-label instead, the badge's digit would be seen but not in the name.
  text.setAttribute('aria-hidden', 'true')
  const spoken = element('span')
  spoken.className = 'sr-only'
  const badge = element('span')
  badge.className = 'badge'
  badge.setAttribute('aria-hidden', 'true')
  launcher.append(icon, text)
  root.append(style, layer, launcher)
  shadow.append(root)
  let current = settings
  let state: LauncherState = { open, unread: 0, label: settings.bubble_text }
  let loading = true
  let clicked = () => {}
  launcher.addEventListener('click', () => clicked())
  const paint = () => {
    const c = current
    root.className = `root ${c.position}${loading ? ' chat-loading' : ''}`
    const background = c.background_color ?? '#ffffff'
    const theme: Record<string, string> = {
      '--pw-primary': c.primary_color,
      '--pw-on-primary': textColorOn(c.primary_color),
      '--pw-secondary': c.secondary_color,
      '--pw-on-secondary': textColorOn(c.secondary_color),
      '--pw-background': background,
      '--pw-on-background': textColorOn(background),
      '--pw-font-size': `${c.font_size}px`,
      '--pw-width': `${c.width}px`,
      '--pw-height': `${c.height}px`,
    }
    for (const [name, value] of Object.entries(theme)) root.style.setProperty(name, value)
    launcher.classList.toggle('open', state.open)
    launcher.setAttribute('aria-expanded', String(state.open))
    if (state.open) launcher.setAttribute('aria-label', state.label)
    else launcher.removeAttribute('aria-label')
    const wanted = state.open ? (icons.close ??= svgIcon(20, 'M6 6l12 12M18 6L6 18')) : (icons.chat ??= svgIcon(22, 'M4 5h16v11H9l-5 4z'))
    if (icon.firstChild !== wanted) icon.replaceChildren(wanted)
    text.textContent = c.bubble_text
    spoken.textContent = state.label
    text.remove()
    spoken.remove()
    badge.remove()
    if (!state.open) launcher.append(text, spoken)
    if (!state.open && state.unread > 0) {
      badge.textContent = state.unread > 99 ? '99+' : String(state.unread)
      launcher.append(badge)
    }
  }
  const speak = (tag: string) => {
    root.lang = tag
    root.dir = RTL_LOCALES.includes(tag as WidgetLocale) ? 'rtl' : 'ltr'
  }
  speak(language)
  paint()
  document.body.appendChild(host)
  return {
    host,
    root,
    layer,
    launcher,
    restyle(settings) {
      const labelWasText = state.label === current.bubble_text
      current = settings
      if (labelWasText) state = { ...state, label: settings.bubble_text }
      paint()
    },
    setLauncher(next) {
      state = next
      paint()
    },
    setChatLoading(value) {
      loading = value
      paint()
    },
    speak,
    onClick: (handler) => (clicked = handler),
    remove: () => host.remove(),
  }
}

export interface Shell {
  host: HTMLElement
  root: HTMLElement
  /** Where widget-live.js renders the preview and the chat window. */
  layer: HTMLElement
  launcher: HTMLButtonElement
  /** Other settings, drawn in place: the same elements, so nothing shown (or focused) is lost. */
  restyle(settings: WidgetConfigValues): void
  setLauncher(state: LauncherState): void
  /** The chat window stays hidden until its stylesheet and script are there. */
  setChatLoading(loading: boolean): void
  /** What a click on the launcher does (widget.js's until widget-live.js takes over). */
  onClick(handler: () => void): void
  /** The widget's language: its tag and direction on the root. */
  speak(tag: string): void
  remove(): void
}

function element<K extends keyof HTMLElementTagNameMap>(tag: K): HTMLElementTagNameMap[K] {
  return document.createElement(tag)
}

/** The icons of components/Icons.tsx (ChatIcon, CloseIcon): the same elements, made without markup. */
function svgIcon(size: number, path: string): SVGSVGElement {
  const ns = 'http://www.w3.org/2000/svg'
  const svg = document.createElementNS(ns, 'svg')
  const attributes: Record<string, string> = {
    width: String(size),
    height: String(size),
    viewBox: '0 0 24 24',
    fill: 'none',
    stroke: 'currentColor',
    'stroke-width': '2',
    'stroke-linecap': 'round',
    'stroke-linejoin': 'round',
    'aria-hidden': 'true',
  }
  for (const [name, value] of Object.entries(attributes)) svg.setAttribute(name, value)
  const line = document.createElementNS(ns, 'path')
  line.setAttribute('d', path)
  svg.append(line)
  return svg
}
