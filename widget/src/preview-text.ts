import type { Content } from '../../server/protocol/widget-protocol.ts'

/** How many characters of a message the preview above the closed launcher shows. */
export const PREVIEW_LENGTH = 120

const MEDIA_KINDS = { image: 'Image', video: 'Video', audio: 'Audio', file: 'File' } as const

/**
 * A message as one line of plain text for the preview: what a bubble would say (a button or
 * list message its text, media its caption or what kind it is), white space folded, cut to
 * `limit` characters with an ellipsis. Cut by code points, so an emoji is never split.
 */
export function previewText(content: Content, limit = PREVIEW_LENGTH): string {
  const folded = textOf(content).replace(/\s+/g, ' ').trim()
  const characters = Array.from(folded)
  return characters.length <= limit ? folded : `${characters.slice(0, limit - 1).join('').trimEnd()}…`
}

function textOf(content: Content): string {
  switch (content.kind) {
    case 'text':
    case 'buttons':
    case 'list':
      return content.text
    case 'media':
      return content.media.caption || content.media.filename || MEDIA_KINDS[content.media.type]
    case 'reply':
      return content.title
    case 'meta_flow':
      return content.cta
  }
}
