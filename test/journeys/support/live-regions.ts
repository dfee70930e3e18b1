import type { Page } from 'playwright-core'

/** One element put into a live region: its text and the region's aria-live at that moment ("off": not read out). */
export interface Addition {
  text: string
  /** Pictures in it (a photo is a message without text). */
  pictures: number
  live: string
  region: string
}

/**
 * Runs in the page (and in the open shadow roots of elements put into it): records each element added inside
 * an element with aria-live, with the value aria-live had when it was added. A screen reader
 * reads out what is added to a polite region and nothing added while it is off, so this is
 * what the person would hear. An element added together with its region is not recorded: a
 * region that appears is not read out.
 */
function recordAdditions(): void {
  const scope = window as unknown as { __additions?: Addition[] }
  if (scope.__additions) return
  const additions: Addition[] = (scope.__additions = [])
  const observer = new MutationObserver((records) => {
    for (const record of records) {
      for (const node of record.addedNodes) {
        if (!(node instanceof Element)) continue
        const region = node.parentElement?.closest('[aria-live]')
        if (!region) continue
        additions.push({ text: (node.textContent ?? '').trim().replace(/\s+/g, ' '), pictures: node.querySelectorAll('img').length + (node.tagName === 'IMG' ? 1 : 0), live: region.getAttribute('aria-live') ?? '', region: region.getAttribute('aria-label') ?? region.className })
      }
    }
  })
  const watched = new WeakSet<Node>()
  const watch = (root: Node) => {
    if (watched.has(root)) return
    watched.add(root)
    observer.observe(root, { childList: true, subtree: true })
  }
  // Open shadow roots (the widget's) are watched as soon as their host is in the page.
  const shadows = new MutationObserver((records) => {
    for (const record of records) for (const node of record.addedNodes) if (node instanceof Element && node.shadowRoot) watch(node.shadowRoot)
  })
  const start = () => {
    watch(document.documentElement)
    shadows.observe(document.documentElement, { childList: true, subtree: true })
    for (const element of document.querySelectorAll('*')) if (element.shadowRoot) watch(element.shadowRoot)
  }
  if (document.documentElement) start()
  else document.addEventListener('DOMContentLoaded', start)
}

/** Starts recording in the page now (elements already in it are not recorded). */
export async function recordLiveAdditions(page: Page): Promise<void> {
  await page.evaluate(recordAdditions)
}

/** Records in every document the page's context loads from now on, shadow roots included (the widget's). */
export async function recordLiveAdditionsOnLoad(page: Page): Promise<void> {
  await page.context().addInitScript(recordAdditions)
}

export async function liveAdditions(page: Page): Promise<Addition[]> {
  return await page.evaluate(() => (window as unknown as { __additions?: Addition[] }).__additions ?? [])
}

/** How many additions containing `text` (or, for `{ pictures: true }`, a picture) were read out, and how many were added silently. */
export async function announced(page: Page, text: string | { pictures: true }): Promise<{ spoken: number; silent: number }> {
  const matching = (await liveAdditions(page)).filter((addition) => (typeof text === 'string' ? addition.text.includes(text) : addition.pictures > 0))
  return { spoken: matching.filter((addition) => addition.live !== 'off').length, silent: matching.filter((addition) => addition.live === 'off').length }
}
