import { answeredNow } from '../db/answered-now.ts'
import { labelKey } from './label-key.ts'
import { DEFAULT_LABEL_COLOR } from './service.ts'
import type { LabelRow, LabelStore } from './store.ts'
import { newId } from '../support/new-id.ts'

/** The engine's `labelled` event, as this domain reads it (declared here: labels/ does not import engine/, which imports label-key.ts). */
interface Labelled {
  type: 'labelled'
  add: string[]
  remove: string[]
}

/** What the labels domain needs of a turn (conversations/service.ts's TurnRecord, structurally). */
interface LabelledTurn {
  conversation: { id: string; chatbot_id: string }
  engineEvents: readonly { type: string }[]
  at: string
}

/**
 * The flow's share of labels. `facts` reads the conversation's labels for a flow whose
 * branches test one (nothing is read for other flows); `turnWriter` stores what a turn's
 * `labels` states set and took off, in the turn's own unit: a label the workspace has no label
 * of that name for is made, grey. Both run inside the synchronous turn (the conversation
 * service's), so the SQLite store's answer is taken with `answeredNow` until the turn awaits
 * (docs/postgres-plan.md, wave 2).
 */
export function flowLabels(store: LabelStore) {
  return {
    /** The conversation's labels as the engine compares them. */
    conversationLabels: (conversationId: string): string[] => answeredNow(store.conversationNameKeys(conversationId)),

    turnWriter: {
      writesFor(turn: LabelledTurn): (() => void) | null {
        const labelled = turn.engineEvents.filter((event): event is Labelled => event.type === 'labelled')
        if (labelled.length === 0) return null
        const workspaceId = answeredNow(store.chatbotWorkspace(turn.conversation.chatbot_id))
        if (!workspaceId) return null
        // The last word on each label wins, in the order the states were entered.
        const wanted = new Map<string, { name: string; on: boolean }>()
        for (const event of labelled) {
          for (const name of event.remove) wanted.set(labelKey(name), { name: name.trim(), on: false })
          for (const name of event.add) wanted.set(labelKey(name), { name: name.trim(), on: true })
        }
        const existing = new Map(answeredNow(store.byNameKeys(workspaceId, [...wanted.keys()])).map((row) => [row.name_key, row]))
        const carrier = { kind: 'conversation' as const, id: turn.conversation.id }
        return () => {
          for (const [key, { name, on }] of wanted) {
            let row: LabelRow | undefined = existing.get(key)
            if (!on) {
              if (row) answeredNow(store.detach(carrier, row.id))
              continue
            }
            if (!row) {
              row = { id: newId(), workspace_id: workspaceId, name, name_key: key, color: DEFAULT_LABEL_COLOR, created_at: turn.at, updated_at: null }
              answeredNow(store.insert(row))
            }
            answeredNow(store.attach(carrier, row.id, turn.at))
          }
        }
      },
    },
  }
}
