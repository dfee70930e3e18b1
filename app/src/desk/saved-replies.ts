import type { SavedReply } from '../types.ts'

/** The saved replies whose shortcut starts with what follows `/` (the whole box is `/word`), at most 8. */
export function matchingReplies(text: string, replies: SavedReply[]): SavedReply[] {
  const typed = /^\/([A-Za-z0-9_-]*)$/.exec(text)
  if (!typed) return []
  const prefix = typed[1]!.toLowerCase()
  return replies.filter((reply) => reply.shortcut.toLowerCase().startsWith(prefix)).slice(0, 8)
}
