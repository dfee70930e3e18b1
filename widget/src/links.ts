/**
 * Finding links in message text without HTML: the text is cut into plain pieces and link
 * pieces, and the view builds text nodes and <a> elements from them. Only http, https and
 * mailto survive; anything else stays plain text.
 */

export type TextPiece = { text: string; href?: string }

const CANDIDATE = /\b(?:https?:\/\/|mailto:|www\.)[^\s<>"']+|\b[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}\b/gi
const TRAILING = /[.,;:!?'"»”’]+$/

/** `http:`/`https:`/`mailto:` URLs as they should be linked, or undefined. */
export function safeHref(candidate: string): string | undefined {
  let url: URL
  try {
    url = new URL(candidate)
  } catch {
    return undefined
  }
  return url.protocol === 'http:' || url.protocol === 'https:' || url.protocol === 'mailto:' ? url.href : undefined
}

/** Media may only come from http(s) addresses. */
export function safeMediaUrl(candidate: string): string | undefined {
  const href = safeHref(candidate)
  return href && !href.startsWith('mailto:') ? href : undefined
}

export function splitLinks(text: string): TextPiece[] {
  const pieces: TextPiece[] = []
  let plainFrom = 0
  for (const match of text.matchAll(CANDIDATE)) {
    const start = match.index ?? 0
    const found = trimLink(match[0])
    const href = safeHref(toUrl(found))
    if (!href) continue
    if (start > plainFrom) pieces.push({ text: text.slice(plainFrom, start) })
    pieces.push({ text: found, href })
    plainFrom = start + found.length
  }
  if (plainFrom < text.length) pieces.push({ text: text.slice(plainFrom) })
  return pieces
}

function toUrl(found: string): string {
  if (/^www\./i.test(found)) return `https://${found}`
  if (!/^[a-z]+:/i.test(found) && found.includes('@')) return `mailto:${found}`
  return found
}

/** Sentence punctuation after a link is not part of it, nor a closing bracket without its opener. */
function trimLink(found: string): string {
  let link = found.replace(TRAILING, '')
  while (/[)\]]$/.test(link)) {
    const close = link.slice(-1)
    const open = close === ')' ? '(' : '['
    if (link.split(open).length >= link.split(close).length) break
    link = link.slice(0, -1).replace(TRAILING, '')
  }
  return link
}
