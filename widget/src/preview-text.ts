import type { Content } from '../../server/protocol/widget-protocol.ts'
import type { WidgetTexts } from '../../server/protocol/widget-texts/en.ts'
import { ENGLISH } from './speech.ts'

/** How many characters of a message the preview above the closed launcher shows. */
export const PREVIEW_LENGTH = 120

/**
 * A message as one line of plain text for the preview: what a bubble would say (a button or
 * list message its text, media its caption or what kind it is), white space folded, cut to
 * `limit` characters with an ellipsis. Cut by code points, so an emoji is never split.
 */
export function previewText(content: Content, limit = PREVIEW_LENGTH, texts: WidgetTexts = ENGLISH.t): string {
  const folded = textOf(content, texts).replace(/\s+/g, ' ').trim()
  const characters = Array.from(folded)
  return characters.length <= limit ? folded : `${characters.slice(0, limit - 1).join('').trimEnd()}…`
}

function textOf(content: Content, texts: WidgetTexts): string {
  switch (content.kind) {
    case 'text':
    case 'buttons':
    case 'list':
      return content.text
    case 'media':
      return content.media.caption || content.media.filename || texts[content.media.type]
    case 'reply':
      return content.title
    case 'meta_flow':
      return content.cta
  }
}
