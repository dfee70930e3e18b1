import type { TimelineItem } from '../types.ts'

/** One identity per item of a timeline, so an item heard twice (fetched, then pushed) shows once. */
export function itemKey(item: TimelineItem): string {
  if (item.type === 'message') return `m:${item.message.id}`
  if (item.type === 'event') return `e:${item.event.id}`
  return `n:${item.note.id}`
}

/** `known` with `added` merged in: no duplicates, oldest first (stable for equal times). */
export function mergeTimeline(known: TimelineItem[], added: TimelineItem[]): TimelineItem[] {
  const seen = new Set(known.map(itemKey))
  const fresh = added.filter((item) => {
    const key = itemKey(item)
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
  if (fresh.length === 0) return known
  const merged = [...known, ...fresh]
  // Already in order in the usual case (appending the newest); sort only when not.
  for (let index = 1; index < merged.length; index++) {
    if (merged[index - 1]!.at > merged[index]!.at) return merged.map((item, order) => ({ item, order })).sort((a, b) => (a.item.at < b.item.at ? -1 : a.item.at > b.item.at ? 1 : a.order - b.order)).map(({ item }) => item)
  }
  return merged
}

/** The newest message a person has seen: what a reply is written against (409 when stale). */
export function newestMessageId(items: TimelineItem[]): string | null {
  for (let index = items.length - 1; index >= 0; index--) {
    const item = items[index]!
    if (item.type === 'message') return item.message.id
  }
  return null
}
