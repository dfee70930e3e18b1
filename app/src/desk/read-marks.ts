import { createSignal } from 'solid-js'

const KEY = 'parley.desk.read'

/**
 * When this browser last saw each conversation, so rows with newer messages are marked unread.
 * Kept in localStorage (bounded), unless the server says `unread` itself.
 */
const [marks, setMarks] = createSignal<Record<string, string>>(load())

function load(): Record<string, string> {
  try {
    return JSON.parse(localStorage.getItem(KEY) ?? '{}') as Record<string, string>
  } catch {
    return {}
  }
}

export function unread(item: { id: string; last_message_at: string; unread?: boolean }): boolean {
  if (typeof item.unread === 'boolean') return item.unread
  const seen = marks()[item.id]
  return !seen || seen < item.last_message_at
}

export function markRead(id: string, at: string): void {
  const next = { ...marks() }
  if ((next[id] ?? '') >= at) return
  next[id] = at
  const ids = Object.keys(next)
  // Keep the 2,000 most recently read.
  if (ids.length > 2000) for (const old of ids.sort((a, b) => (next[a]! < next[b]! ? -1 : 1)).slice(0, ids.length - 2000)) delete next[old]
  setMarks(next)
  localStorage.setItem(KEY, JSON.stringify(next))
}
