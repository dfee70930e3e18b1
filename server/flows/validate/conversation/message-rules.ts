import { type DefinitionView, isRecord, type MessageEntry, objectsIn } from './definition-view.ts'
import type { Findings } from './findings.ts'

/** What the messaging-app channel shows as is; longer or more gets cut or refused by the provider. */
export const CHANNEL_LIMITS = {
  text: 4096,
  /** Text of a buttons or list message, and a media caption. */
  interactiveText: 1024,
  buttons: 3,
  buttonTitle: 20,
  listRows: 10,
  rowTitle: 24,
} as const

/**
 * Reply ids are unique within their message (the answer must say which one was picked), and
 * content over the messaging-app channel's limits is worth a warning: the web widget shows it,
 * the messaging app would not.
 */
export function checkMessages(view: DefinitionView, findings: Findings): void {
  const root = view.root
  if (root) checkLength(root.fallback, '/fallback', CHANNEL_LIMITS.text, findings)
  for (const entry of view.states) {
    for (const message of view.messages(entry)) checkMessage(message, findings)
    if (isRecord(entry.state.capture)) checkLength(entry.state.capture.retry, `${entry.path}/capture/retry`, CHANNEL_LIMITS.text, findings)
    if (isRecord(entry.state.handoff)) checkLength(entry.state.handoff.text, `${entry.path}/handoff/text`, CHANNEL_LIMITS.text, findings)
  }
}

function checkMessage({ message, path, kind }: MessageEntry, findings: Findings): void {
  if (kind === 'text') checkLength(message.text, `${path}/text`, CHANNEL_LIMITS.text, findings)
  if (kind === 'media' && isRecord(message.media)) {
    checkLength(message.media.caption, `${path}/media/caption`, CHANNEL_LIMITS.interactiveText, findings)
  }
  if (kind === 'buttons') {
    checkLength(message.text, `${path}/text`, CHANNEL_LIMITS.interactiveText, findings)
    const buttons = objectsIn(message.buttons)
    checkUniqueIds(buttons.map(({ value, index }) => ({ value, path: `${path}/buttons/${index}` })), 'button', findings)
    if (Array.isArray(message.buttons) && message.buttons.length > CHANNEL_LIMITS.buttons) {
      findings.warning(
        `${path}/buttons`,
        'too_many_buttons',
        `has ${message.buttons.length} buttons; the messaging app shows at most ${CHANNEL_LIMITS.buttons} (use a list message for more)`,
      )
    }
    for (const { value, index } of buttons) checkButtonTitle(value.title, `${path}/buttons/${index}/title`, findings)
  }
  if (kind === 'list') {
    checkLength(message.text, `${path}/text`, CHANNEL_LIMITS.interactiveText, findings)
    checkButtonTitle(message.button, `${path}/button`, findings)
    const rows = objectsIn(message.sections).flatMap(({ value: section, index: sectionIndex }) =>
      objectsIn(section.rows).map(({ value, index }) => ({ value, path: `${path}/sections/${sectionIndex}/rows/${index}` })),
    )
    checkUniqueIds(rows, 'row', findings)
    if (rows.length > CHANNEL_LIMITS.listRows) {
      findings.warning(
        `${path}/sections`,
        'too_many_list_rows',
        `has ${rows.length} rows in all; the messaging app shows at most ${CHANNEL_LIMITS.listRows} per list`,
      )
    }
    for (const row of rows) {
      const title = row.value.title
      if (typeof title === 'string' && title.length > CHANNEL_LIMITS.rowTitle && characters(title) > CHANNEL_LIMITS.rowTitle) {
        findings.warning(
          `${row.path}/title`,
          'row_title_too_long',
          `is ${characters(title)} characters; the messaging app shows row titles of at most ${CHANNEL_LIMITS.rowTitle}`,
        )
      }
    }
  }
}

function checkUniqueIds(items: { value: Record<string, unknown>; path: string }[], what: string, findings: Findings): void {
  const firstById = new Map<string, string>()
  for (const { value, path } of items) {
    if (typeof value.id !== 'string') continue
    const first = firstById.get(value.id)
    if (first) {
      findings.error(`${path}/id`, 'duplicate_reply_id', `"${value.id}" is already the id of the ${what} at ${first}; ${what} ids must be unique within a message`)
    } else firstById.set(value.id, path)
  }
}

function checkButtonTitle(title: unknown, path: string, findings: Findings): void {
  if (typeof title !== 'string' || title.length <= CHANNEL_LIMITS.buttonTitle || characters(title) <= CHANNEL_LIMITS.buttonTitle) return
  findings.warning(
    path,
    'button_title_too_long',
    `is ${characters(title)} characters; the messaging app shows button titles of at most ${CHANNEL_LIMITS.buttonTitle}`,
  )
}

function checkLength(text: unknown, path: string, limit: number, findings: Findings): void {
  if (typeof text !== 'string' || text.length <= limit || characters(text) <= limit) return
  findings.warning(path, 'text_too_long', `is ${characters(text)} characters; the messaging app shows at most ${limit} here`)
}

/** Characters as people count them (code points), not UTF-16 units. */
function characters(text: string): number {
  let count = 0
  for (const _ of text) count += 1
  return count
}
