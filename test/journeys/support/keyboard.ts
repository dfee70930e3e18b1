import type { Page } from 'playwright-core'

export interface Focused {
  /** The focused element, through open shadow roots: tag#id.class[aria-label] "text". */
  element: string
  /** What draws the focus indicator (the element, or the box around it that shows :focus-within), or null when nothing does. */
  indicator: string | null
}

/**
 * Where the keyboard is, and whether a person can see it: the focused element (inside the
 * widget's shadow root too) and the outline or box-shadow that marks it, on the element or on
 * the box around it that shows :focus-within (the widget's composer marks its text box that
 * way), at most two levels up.
 */
export async function focused(page: Page): Promise<Focused> {
  return await page.evaluate(() => {
    let active: Element | null = document.activeElement
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement
    const describe = (element: Element) => {
      const label = element.getAttribute('aria-label')
      const text = (element.textContent ?? '').trim().replace(/\s+/g, ' ').slice(0, 40)
      return `${element.tagName.toLowerCase()}${element.id ? `#${element.id}` : ''}${[...element.classList].map((name) => `.${name}`).join('')}${label ? `[aria-label="${label}"]` : ''}${text ? ` "${text}"` : ''}`
    }
    if (!active || active === document.body || active === document.documentElement) return { element: 'none (the page itself)', indicator: null }
    const marks = (element: Element) => {
      const style = getComputedStyle(element)
      const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 1
      return outline || style.boxShadow !== 'none'
    }
    const parentOf = (element: Element): Element | null => element.parentElement ?? ((element.getRootNode() as ShadowRoot).host ?? null)
    let candidate: Element | null = active
    for (let level = 0; candidate && level <= 2; level++, candidate = parentOf(candidate)) {
      if (level > 0 && !candidate.matches(':focus-within')) continue
      if (marks(candidate)) return { element: describe(active), indicator: describe(candidate) }
    }
    return { element: describe(active), indicator: null }
  })
}

/** Fails unless something has the focus and shows it; returns what has it. */
export async function expectVisibleFocus(page: Page, what: string): Promise<string> {
  const now = await focused(page)
  if (!now.indicator) throw new Error(`${what}: the focus on ${now.element} is not visible (no outline or box-shadow on it or the box around it)`)
  return now.element
}

/**
 * Presses Tab (or Shift+Tab) until the focused element is `target` (a CSS selector matched
 * against the deep active element, with `text` in it when given), checking at every stop that the focus is visible; fails
 * after `most` presses, listing the stops. Returns the stops passed on the way.
 */
export async function tabTo(page: Page, target: string, what: string, options: { backwards?: boolean; most?: number; text?: string } = {}): Promise<string[]> {
  const stops: string[] = []
  for (let press = 0; press < (options.most ?? 25); press++) {
    await page.keyboard.press(options.backwards ? 'Shift+Tab' : 'Tab')
    stops.push(await expectVisibleFocus(page, `tabbing to ${what}`))
    const there = await page.evaluate(
      ({ selector, text }) => {
        let active: Element | null = document.activeElement
        while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement
        return (active?.matches(selector) ?? false) && (text === undefined || (active?.textContent ?? '').includes(text))
      },
      { selector: target, text: options.text },
    )
    if (there) return stops
  }
  throw new Error(`${what}: not reached with ${options.backwards ? 'Shift+Tab' : 'Tab'}; the stops were:\n${stops.join('\n')}`)
}

/** Whether the deep active element matches `selector`. */
export async function hasFocus(page: Page, selector: string): Promise<boolean> {
  return await page.evaluate((selector) => {
    let active: Element | null = document.activeElement
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement
    return active?.matches(selector) ?? false
  }, selector)
}
