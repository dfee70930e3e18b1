/**
 * The provider's limits on what one message may carry (WhatsApp Cloud API), counted in
 * UTF-16 code units as the provider counts them, and the text helpers that keep content
 * within them.
 */
export const LIMITS = {
  /** A text message's body. */
  text: 4096,
  /** The body of a reply-buttons or flow message. */
  interactiveBody: 1024,
  /** The body of a list message. */
  listBody: 4096,
  buttons: 3,
  buttonTitle: 20,
  buttonId: 256,
  listButton: 20,
  /** Rows of one list message, all sections together; also its most sections. */
  listRows: 10,
  sectionTitle: 24,
  rowTitle: 24,
  rowId: 200,
  rowDescription: 72,
  caption: 1024,
  flowCta: 20,
  filename: 240,
} as const

const ELLIPSIS = '…'

/** `text` if it fits in `max`, else its start and an ellipsis, never splitting a character. */
export function cut(text: string, max: number): string {
  if (text.length <= max) return text
  return `${safeSlice(text, max - ELLIPSIS.length).trimEnd()}${ELLIPSIS}`
}

/**
 * Splits a long text into pieces of at most `max`, each ending where a paragraph, line or
 * word does when one is near, so that no word is broken in two unless it alone is too long.
 */
export function splitText(text: string, max: number): string[] {
  const pieces: string[] = []
  let rest = text
  while (rest.length > max) {
    const window = safeSlice(rest, max)
    const at = breakAt(window)
    pieces.push(window.slice(0, at).trimEnd())
    rest = rest.slice(at).trimStart()
  }
  if (rest.length > 0 || pieces.length === 0) pieces.push(rest)
  return pieces
}

/** Where to end a piece: after the last paragraph, line or space break in its second half, else at its end. */
function breakAt(window: string): number {
  const half = Math.floor(window.length / 2)
  for (const separator of ['\n\n', '\n', ' ']) {
    const index = window.lastIndexOf(separator)
    if (index >= half) return index + separator.length
  }
  return window.length
}

/** The first `length` code units, one fewer when that would cut a surrogate pair in half. */
function safeSlice(text: string, length: number): string {
  const end = Math.max(0, length)
  const last = text.charCodeAt(end - 1)
  return last >= 0xd800 && last <= 0xdbff ? text.slice(0, end - 1) : text.slice(0, end)
}

/** The call to action of a flow message may not contain emoji. */
export function withoutEmoji(text: string): string {
  return text
    .replace(/[\p{Extended_Pictographic}\u{1F1E6}-\u{1F1FF}\u{FE0F}\u{200D}\u{20E3}\u{1F3FB}-\u{1F3FF}]/gu, '')
    .replace(/\s+/g, ' ')
    .trim()
}

/** Whether a text carries a web link, for which the provider can show a preview. */
export const hasLink = (text: string): boolean => /\bhttps?:\/\/\S/i.test(text)

/**
 * Titles that are unique within one message once cut (the provider refuses two equal button
 * titles): a repeat gets a number.
 */
export function uniqueTitles(titles: string[], max: number): string[] {
  const seen = new Set<string>()
  return titles.map((title) => {
    let candidate = cut(title, max)
    for (let n = 2; seen.has(candidate); n++) candidate = `${cut(title, max - ` ${n}`.length)} ${n}`
    seen.add(candidate)
    return candidate
  })
}
