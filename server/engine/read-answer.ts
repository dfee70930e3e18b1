import type { EngineInput, InteractiveContent } from './model.ts'

/** What the visitor said, as transitions and captures see it. */
export interface Answer {
  /** The typed text, or the picked button's or row's title. */
  text: string
  /** Set when the visitor picked a button or row, or typed the title of one on offer. */
  reply?: { reply_to: 'button' | 'row'; id: string }
}

interface Offer {
  reply_to: 'button' | 'row'
  id: string
  title: string
}

/**
 * Turns a text or reply input into an answer. Visitors type a label as often as they click
 * it, so a text equal to the title of a button or row on offer (trimmed, ignoring case)
 * counts as picking it; the newest message's labels win when two share a title. A reply
 * takes the title the bot sent for that id, not the one the client claims.
 */
export function readAnswer(input: Extract<EngineInput, { kind: 'text' | 'reply' }>, offered: InteractiveContent[]): Answer {
  const offers = offersOf(offered)
  if (input.kind === 'reply') {
    const sent = offers.find((offer) => offer.reply_to === input.reply_to && offer.id === input.id)
    return { text: sent?.title ?? input.title, reply: { reply_to: input.reply_to, id: input.id } }
  }
  const typed = sameText(input.text)
  const picked = offers.find((offer) => sameText(offer.title) === typed)
  return picked ? { text: input.text, reply: { reply_to: picked.reply_to, id: picked.id } } : { text: input.text }
}

/** Trimmed, case-folded and in one Unicode form, so that equal-looking texts compare equal. */
export function sameText(text: string): string {
  return text.trim().normalize('NFC').toLowerCase()
}

/** Newest message first; within a message, in the order shown. */
function offersOf(offered: InteractiveContent[]): Offer[] {
  const offers: Offer[] = []
  for (const content of [...offered].reverse()) {
    if (content.kind === 'buttons') for (const { id, title } of content.buttons) offers.push({ reply_to: 'button', id, title })
    else for (const section of content.sections) for (const { id, title } of section.rows) offers.push({ reply_to: 'row', id, title })
  }
  return offers
}
