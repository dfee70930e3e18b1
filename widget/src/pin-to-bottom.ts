/** The event an entry sends up when the visitor opens something to read in place (a list's rows). */
export const UNPIN = 'parley-unpin'

/** How near the bottom (px) still counts as "at the bottom": a trackpad's stray pixels do not unpin. */
const NEAR = 8

/**
 * Keeps the message log scrolled to its end while the visitor is there: whatever grows at the
 * bottom (a message, a draft's next words, the typing dots, the end divider, the rating and its
 * comment box, an image that finished loading) stays in view. Once the visitor scrolls up,
 * the log stays where they are, and `onNewBelow(true)` says an entry was added at the end (the
 * "New message" pill); `onNewBelow(false)` once they are back at the bottom. Entries marked
 * `data-not-news` (the typing dots, "Seen") keep the pin but raise no pill; an UNPIN event
 * from inside the log lets the visitor read where they opened something.
 */
export function pinToBottom(log: HTMLElement, onNewBelow: (shown: boolean) => void) {
  let pinned = true
  let ownTop = -1
  const toBottom = () => {
    pinned = true
    log.scrollTop = log.scrollHeight
    ownTop = log.scrollTop
    onNewBelow(false)
  }
  const onScroll = () => {
    // Our own scroll, reported after more grew below it, is not the visitor leaving the bottom.
    if (pinned && Math.abs(log.scrollTop - ownTop) < 1) return
    pinned = log.scrollHeight - log.scrollTop - log.clientHeight <= NEAR
    if (pinned) onNewBelow(false)
  }
  // A bubble grows without a DOM change too (an image loads, a font arrives).
  const sizes = new ResizeObserver(() => pinned && toBottom())
  const news = (entry: Element, added: Set<Node>) => {
    if (entry.hasAttribute('data-not-news')) return false
    for (let next = entry.nextElementSibling; next; next = next.nextElementSibling) if (!added.has(next) && !next.hasAttribute('data-not-news')) return false
    return true
  }
  const changes = new MutationObserver((records) => {
    const added = new Set(records.flatMap((record) => [...record.addedNodes]))
    for (const node of added) if (node instanceof Element && node.parentNode === log) sizes.observe(node)
    if (pinned) return toBottom()
    // Only an entry with nothing older after it is new: earlier messages loaded above are not.
    if ([...added].some((node) => node instanceof Element && node.parentNode === log && news(node, added))) onNewBelow(true)
  })
  const unpin = () => (pinned = false)
  log.addEventListener('scroll', onScroll, { passive: true })
  log.addEventListener(UNPIN, unpin)
  changes.observe(log, { childList: true, subtree: true, characterData: true })
  sizes.observe(log)
  for (const child of log.children) sizes.observe(child)
  toBottom()
  return {
    toBottom,
    stop() {
      log.removeEventListener('scroll', onScroll)
      log.removeEventListener(UNPIN, unpin)
      changes.disconnect()
      sizes.disconnect()
    },
  }
}
