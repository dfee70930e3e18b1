import type { SayMessage } from '../flow-language/conversation-flow-schema.ts'
import type { Content } from '../protocol/widget-protocol.ts'
import { renderTemplate, type TemplateValues } from './render-template.ts'

/**
 * One `say` entry as the `Content` every channel delivers, with templates filled in every
 * text a person reads (texts, titles, descriptions, captions, file names, calls to action).
 * Ids, URLs and flow ids are sent as written: a visitor's answer must never choose where a
 * link points. Returns null for a text message that comes out blank, which is not sent.
 */
export function renderSay(message: SayMessage, values: TemplateValues): Content | null {
  const fill = (text: string) => renderTemplate(text, values)
  if ('media' in message) {
    const { type, url, caption, filename } = message.media
    return {
      kind: 'media',
      media: { type, url, ...(caption !== undefined && { caption: fill(caption) }), ...(filename !== undefined && { filename: fill(filename) }) },
    }
  }
  if ('meta_flow' in message) return { kind: 'meta_flow', flow_id: message.meta_flow.flow_id, cta: fill(message.meta_flow.cta) }
  if ('buttons' in message) {
    return { kind: 'buttons', text: fill(message.text), buttons: message.buttons.map(({ id, title }) => ({ id, title: fill(title) })) }
  }
  if ('sections' in message) {
    return {
      kind: 'list',
      text: fill(message.text),
      button: fill(message.button),
      sections: message.sections.map((section) => ({
        ...(section.title !== undefined && { title: fill(section.title) }),
        rows: section.rows.map((row) => ({
          id: row.id,
          title: fill(row.title),
          ...(row.description !== undefined && { description: fill(row.description) }),
        })),
      })),
    }
  }
  const text = fill(message.text)
  return text.trim() === '' ? null : { kind: 'text', text }
}
