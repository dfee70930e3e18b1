import type { Locator } from 'playwright-core'

export interface ViewportCheck {
  ok: boolean
  /** Why not, in words (its box, what clips or covers it). */
  why: string
}

/**
 * Whether the element is where a person would see it: laid out, not hidden, inside the
 * window AND inside every scrolling or clipping box around it (the widget's log, the desk's
 * message list; shadow roots are crossed), and not covered at its centre by something else.
 * Present in the DOM, or "visible" in Playwright's sense, is not enough: a message scrolled
 * below a log's edge is both.
 */
export async function inViewport(locator: Locator): Promise<ViewportCheck> {
  if ((await locator.count()) === 0) return { ok: false, why: 'not in the DOM' }
  return await locator.first().evaluate((element: Element): ViewportCheck => {
    const box = element.getBoundingClientRect()
    if (box.width === 0 || box.height === 0) return { ok: false, why: 'has no size' }
    const describe = (node: Element) => `${node.tagName.toLowerCase()}${node.id ? `#${node.id}` : ''}${[...node.classList].map((name) => `.${name}`).join('')}`
    const up = (node: Node): Element | null => (node.parentNode instanceof ShadowRoot ? node.parentNode.host : node.parentElement)
    const clips: { top: number; left: number; bottom: number; right: number; by: string }[] = []
    for (let node: Element | null = element; node; node = up(node)) {
      const style = getComputedStyle(node)
      if (style.display === 'none' || style.visibility === 'hidden' || Number(style.opacity) === 0) return { ok: false, why: `${describe(node)} is hidden` }
      if (node !== element && (style.overflowX !== 'visible' || style.overflowY !== 'visible')) {
        const edge = node.getBoundingClientRect()
        clips.push({ top: edge.top + node.clientTop, left: edge.left + node.clientLeft, bottom: edge.top + node.clientTop + node.clientHeight, right: edge.left + node.clientLeft + node.clientWidth, by: describe(node) })
      }
    }
    // Innermost first, so that the reason names the log that hides it rather than the window.
    clips.push({ top: 0, left: 0, bottom: window.innerHeight, right: window.innerWidth, by: 'the window' })
    let clip = clips.at(-1)!
    for (const edge of clips) {
      // A box taller (or wider) than what clips it must at least fill it.
      const needHeight = Math.min(box.height, edge.bottom - edge.top) - 1
      const needWidth = Math.min(box.width, edge.right - edge.left) - 1
      const shownHeight = Math.min(box.bottom, edge.bottom) - Math.max(box.top, edge.top)
      const shownWidth = Math.min(box.right, edge.right) - Math.max(box.left, edge.left)
      if (shownHeight < needHeight || shownWidth < needWidth) {
        const at = (r: { top: number; bottom: number; left: number; right: number }) => `top ${Math.round(r.top)} bottom ${Math.round(r.bottom)} left ${Math.round(r.left)} right ${Math.round(r.right)}`
        return { ok: false, why: `its box (${at(box)}) is cut by ${edge.by} (${at(edge)})` }
      }
      clip = { top: Math.max(clip.top, edge.top), left: Math.max(clip.left, edge.left), bottom: Math.min(clip.bottom, edge.bottom), right: Math.min(clip.right, edge.right), by: edge.by }
    }
    // What a click at the middle of its shown part would hit, through shadow roots.
    const x = (Math.max(box.left, clip.left) + Math.min(box.right, clip.right)) / 2
    const y = (Math.max(box.top, clip.top) + Math.min(box.bottom, clip.bottom)) / 2
    let hit: Element | null = document.elementFromPoint(x, y)
    while (hit?.shadowRoot) {
      const inner = hit.shadowRoot.elementFromPoint(x, y)
      if (!inner || inner === hit) break
      hit = inner
    }
    if (hit && hit !== element && !element.contains(hit)) return { ok: false, why: `covered by ${describe(hit)}` }
    return { ok: true, why: '' }
  })
}

/** Waits (polling, up to `ms`) until the element is in view as `inViewport` means it; fails saying why not. */
export async function expectInViewport(locator: Locator, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms
  let last: ViewportCheck = { ok: false, why: 'not checked' }
  for (;;) {
    last = await inViewport(locator)
    if (last.ok) return
    if (Date.now() > deadline) throw new Error(`${what} is not in view: ${last.why}`)
    await Bun.sleep(50)
  }
}

/** Waits until the element is out of view (scrolled away, hidden or gone). */
export async function expectOutOfViewport(locator: Locator, what: string, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms
  for (;;) {
    if (!(await inViewport(locator)).ok) return
    if (Date.now() > deadline) throw new Error(`${what} is still in view`)
    await Bun.sleep(50)
  }
}
