import type { Content } from '../../protocol/widget-protocol.ts'
import { cut, hasLink, LIMITS, splitText, uniqueTitles } from './cloud-api-limits.ts'
import { metaFlowMessage, type MetaFlowView } from './meta-flow-message.ts'
import { providerRowId } from './reply-ids.ts'

/** One request to the provider's messages endpoint, as it is sent. */
export interface CloudMessage {
  /** The Cloud API type: text, image, interactive.button, interactive.list, interactive.flow, ... */
  type: string
  body: Record<string, unknown>
  /** How the content was changed to fit the provider's limits, when it was. */
  adaptation: string | null
}

export interface OutboundContext {
  /** The recipient: an E.164 number without its `+`. */
  to: string
  /** Sent with a meta flow, and back with its completion: which conversation and flow it was. */
  flowToken: (flowId: string) => string
  /** The published meta flow and its name, or null when it is not published (any more). */
  metaFlow: (flowId: string) => MetaFlowView | null
}

type Section = { title?: string; rows: { id: string; title: string; description?: string }[] }
type Part = { type: string; payload: Record<string, unknown> }

const LIST_LABEL = 'Choose one'
const BLANK = '…'

/**
 * A Parley message as the provider's messages, in order: usually one, more when the content
 * breaks the provider's limits and is adapted rather than dropped (a long text in pieces,
 * more than 3 buttons as a list, more than 10 rows as several lists, an audio's caption as
 * its own text). docs/chatapp-channel.md lists every adaptation.
 */
export function toCloudMessages(content: Content, context: OutboundContext): CloudMessage[] {
  const { parts, adaptation } = partsOf(content, context)
  return parts.map(({ type, payload }) => {
    const [kind, sub] = type.split('.') as [string, string | undefined]
    const body: Record<string, unknown> = { messaging_product: 'whatsapp', recipient_type: 'individual', to: context.to, type: kind }
    body[kind] = sub ? { type: sub, ...payload } : payload
    return { type, body, adaptation }
  })
}

function partsOf(content: Content, context: OutboundContext): { parts: Part[]; adaptation: string | null } {
  switch (content.kind) {
    case 'text':
      return texts(content.text, content.text.length > LIMITS.text ? `a text of ${content.text.length} characters went as ${splitText(content.text, LIMITS.text).length} messages (at most ${LIMITS.text} each)` : null)
    case 'buttons':
      return buttons(content.text, content.buttons)
    case 'list':
      return list(content.text, content.button, content.sections, null)
    case 'media':
      return media(content.media)
    case 'meta_flow': {
      const view = context.metaFlow(content.flow_id)
      if (!view) return texts(content.cta, `meta flow ${content.flow_id} is not published; its call to action went as text`)
      const [before, body] = leadingText(content.cta, LIMITS.interactiveBody)
      const parts = [...before, { type: 'interactive.flow', payload: metaFlowMessage(view, body, content.cta, context.flowToken(content.flow_id)) }]
      return { parts, adaptation: before.length > 0 ? longBody(content.cta, LIMITS.interactiveBody) : null }
    }
    case 'reply':
      // A visitor's pick: never sent to the visitor.
      return { parts: [], adaptation: null }
  }
}

function texts(text: string, adaptation: string | null): { parts: Part[]; adaptation: string | null } {
  return { parts: textParts(text), adaptation }
}

function textParts(text: string): Part[] {
  return splitText(text, LIMITS.text).map((piece) => ({
    type: 'text',
    payload: hasLink(piece) ? { body: piece, preview_url: true } : { body: piece },
  }))
}

/** Reply buttons: at most 3, titles of at most 20 characters, unique; more become a list. */
function buttons(text: string, offered: { id: string; title: string }[]) {
  if (offered.length > LIMITS.buttons) {
    const note = `${offered.length} buttons went as a list (at most ${LIMITS.buttons} buttons per message)`
    return list(text, LIST_LABEL, [{ rows: offered }], note)
  }
  const [before, body] = leadingText(text, LIMITS.interactiveBody)
  const titles = uniqueTitles(offered.map(({ id, title }) => title.trim() || id), LIMITS.buttonTitle)
  const cutTitles = offered.filter(({ title }, index) => titles[index] !== title).map(({ title }) => `"${title}"`)
  const notes = [
    before.length > 0 ? longBody(text, LIMITS.interactiveBody) : null,
    cutTitles.length > 0 ? `button titles shortened to ${LIMITS.buttonTitle} characters (or made unique): ${cutTitles.join(', ')}` : null,
  ]
  const action = { buttons: offered.map(({ id }, index) => ({ type: 'reply', reply: { id, title: titles[index] } })) }
  return { parts: [...before, { type: 'interactive.button', payload: { body: { text: body }, action } }], adaptation: joinNotes(notes) }
}

/** A list: at most 10 rows per message (more go as further lists), with the provider's length limits. */
function list(text: string, button: string, sections: Section[], note: string | null) {
  const chunks = chunkRows(sections, LIMITS.listRows)
  const label = cut(button.trim() || LIST_LABEL, LIMITS.listButton)
  const shortened: string[] = []
  // Room for the " (2/3)" that numbers several lists.
  const [before, body] = leadingText(text, LIMITS.listBody - (chunks.length > 1 ? 12 : 0))
  const lists: Part[] = chunks.map((chunk, index) => ({
    type: 'interactive.list',
    payload: {
      body: { text: chunks.length > 1 ? `${body} (${index + 1}/${chunks.length})` : body },
      action: { button: label, sections: listSections(chunk, shortened) },
    },
  }))
  const notes = [
    note,
    before.length > 0 ? longBody(text, LIMITS.listBody) : null,
    chunks.length > 1 ? `${chunks.reduce((n, chunk) => n + chunk.reduce((m, s) => m + s.rows.length, 0), 0)} rows went as ${chunks.length} lists (at most ${LIMITS.listRows} rows per list)` : null,
    button.trim().length > LIMITS.listButton ? `the list button "${button}" was shortened to ${LIMITS.listButton} characters` : null,
    shortened.length > 0 ? `shortened to fit: ${shortened.join(', ')}` : null,
  ]
  return { parts: [...before, ...lists], adaptation: joinNotes(notes) }
}

function listSections(chunk: Section[], shortened: string[]): Record<string, unknown>[] {
  const rows = (section: Section) =>
    section.rows.map(({ id, title, description }) => {
      const shownTitle = cut(title.trim() || id, LIMITS.rowTitle)
      if (shownTitle !== title) shortened.push(`row "${title}"`)
      const row: Record<string, unknown> = { id: providerRowId(id), title: shownTitle }
      if (description?.trim()) {
        row.description = cut(description, LIMITS.rowDescription)
        if (row.description !== description) shortened.push(`the description of row "${title}"`)
      }
      return row
    })
  // More than one section needs a title on each; untitled ones are merged rather than named.
  if (chunk.length > 1 && chunk.some((section) => !section.title?.trim())) {
    return [{ rows: chunk.flatMap(rows) }]
  }
  return chunk.map((section) => {
    const title = section.title?.trim()
    if (!title) return { rows: rows(section) }
    if (title.length > LIMITS.sectionTitle) shortened.push(`section "${title}"`)
    return { title: cut(title, LIMITS.sectionTitle), rows: rows(section) }
  })
}

/** Sections split so that no chunk holds more than `max` rows; a split section keeps its title in each chunk. */
function chunkRows(sections: Section[], max: number): Section[][] {
  const chunks: Section[][] = [[]]
  let room = max
  for (const section of sections) {
    let rows = section.rows
    while (rows.length > 0) {
      if (room === 0) {
        chunks.push([])
        room = max
      }
      const taken = rows.slice(0, room)
      ;(chunks.at(-1) as Section[]).push({ ...section, rows: taken })
      room -= taken.length
      rows = rows.slice(taken.length)
    }
  }
  return chunks
}

/** Media by link; the provider shows no caption on audio and at most 1024 characters on the others: the rest follows as text. */
function media(item: Extract<Content, { kind: 'media' }>['media']) {
  const type = item.type === 'file' ? 'document' : item.type
  const payload: Record<string, unknown> = { link: item.url }
  const caption = item.caption?.trim() ? item.caption : undefined
  let after: Part[] = []
  let adaptation: string | null = null
  if (caption !== undefined) {
    if (type === 'audio') {
      after = textParts(caption)
      adaptation = 'the caption of an audio went as its own text (the provider shows no caption on audio)'
    } else if (caption.length > LIMITS.caption) {
      after = textParts(caption)
      adaptation = `a caption of ${caption.length} characters went as its own text (at most ${LIMITS.caption})`
    } else payload.caption = caption
  }
  if (type === 'document') {
    const filename = item.filename?.trim() || filenameOf(item.url)
    if (filename) payload.filename = cut(filename, LIMITS.filename)
  }
  return { parts: [{ type, payload }, ...after], adaptation }
}

function filenameOf(url: string): string | undefined {
  try {
    const last = new URL(url).pathname.split('/').pop() ?? ''
    return decodeURIComponent(last) || undefined
  } catch {
    return undefined
  }
}

/**
 * A body of at most `max` for an interactive message: a longer text goes first as text
 * messages, and its last piece becomes the body, so the whole text arrives once, in order.
 */
function leadingText(text: string, max: number): [Part[], string] {
  if (!text.trim()) return [[], BLANK]
  if (text.length <= max) return [[], text]
  const pieces = splitText(text, max)
  const body = pieces.pop() as string
  return [textParts(pieces.join('\n')), body]
}

const longBody = (text: string, max: number) =>
  `a text of ${text.length} characters went ahead as text; the interactive message carries its last part (at most ${max} characters)`

function joinNotes(notes: (string | null)[]): string | null {
  const present = notes.filter((note): note is string => note !== null)
  return present.length > 0 ? present.join('; ') : null
}
