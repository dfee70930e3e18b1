import type { ServerMessage } from '../../server/protocol/widget-protocol.ts'

/** The bot's answer while it is written: shown as it grows, never stored by the widget. */
export interface Draft {
  message_id: string
  conversation_id: string
  text: string
}

type DraftFrame = Extract<ServerMessage, { type: 'draft' | 'draft_delta' | 'draft_dropped' }>

/**
 * The drafts after one draft frame. A delta applies only where it says it starts: one that
 * does not fit (a draft this widget never saw, or forgot at a welcome) is left out, and the
 * server sends that tab the whole draft instead.
 */
export function applyDraftFrame(drafts: readonly Draft[], frame: DraftFrame): Draft[] {
  switch (frame.type) {
    case 'draft': {
      const draft = { message_id: frame.message_id, conversation_id: frame.conversation_id, text: frame.text }
      const at = drafts.findIndex((shown) => shown.message_id === frame.message_id)
      return at < 0 ? [...drafts, draft] : drafts.map((shown, index) => (index === at ? draft : shown))
    }
    case 'draft_delta':
      return drafts.map((shown) =>
        shown.message_id === frame.message_id && shown.text.length === frame.at ? { ...shown, text: shown.text + frame.text } : shown,
      )
    case 'draft_dropped':
      return withoutDraft(drafts, frame.message_id)
  }
}

/** The stored message with a draft's id has arrived: it takes the draft's place. */
export function withoutDraft(drafts: readonly Draft[], messageId: string): Draft[] {
  return drafts.some((draft) => draft.message_id === messageId) ? drafts.filter((draft) => draft.message_id !== messageId) : (drafts as Draft[])
}
