import type { Label, LabelColor } from './model.ts'

/** A label as stored: `name_key` is its name folded to lower case, what uniqueness and flows compare. */
export interface LabelRow extends Label {
  workspace_id: string
  name_key: string
}

/** The conversation or contact labels are set on. */
export type Carrier = { kind: 'conversation'; id: string } | { kind: 'contact'; id: string }

/**
 * The only code that reads and writes labels (docs/architecture.md, "The store seam"): a
 * workspace's set, and which conversations and contacts carry them. Every method takes the
 * workspace: nothing of another workspace is read or written through it.
 */
export interface LabelStore {
  /** The workspace's labels, by name. */
  list(workspaceId: string): Promise<LabelRow[]>
  get(workspaceId: string, id: string): Promise<LabelRow | undefined>
  /** Labels of the workspace by their folded names (those that exist). */
  byNameKeys(workspaceId: string, nameKeys: string[]): Promise<LabelRow[]>
  /** false, nothing written, when the workspace has a label of that name already. Run it in a unit. */
  insert(row: LabelRow): Promise<boolean>
  /** false, nothing written, when another label has that name. Run it in a unit. */
  update(workspaceId: string, id: string, change: { name: string; name_key: string; color: LabelColor; updated_at: string }): Promise<boolean>
  /** Removes the label from the set and from whoever carried it; false when there was none. Run it in a unit. */
  remove(workspaceId: string, id: string): Promise<boolean>
  /** Whether the conversation or contact is the workspace's. */
  carrierInWorkspace(workspaceId: string, carrier: Carrier): Promise<boolean>
  /** The labels it carries, by name. */
  carried(workspaceId: string, carrier: Carrier): Promise<LabelRow[]>
  /** Sets a label on it (once: setting it again changes nothing). Run it in a unit. */
  attach(carrier: Carrier, labelId: string, at: string): Promise<void>
  /** Takes a label off it; false when it did not carry it. Run it in a unit. */
  detach(carrier: Carrier, labelId: string): Promise<boolean>
  /** The workspace a chatbot is in: a flow's labels are its workspace's. */
  chatbotWorkspace(chatbotId: string): Promise<string | undefined>
  /** The folded names of the conversation's labels: what a flow's condition reads. */
  conversationNameKeys(conversationId: string): Promise<string[]>
}

/** A label name as compared (label-key.ts). */
export { labelKey as nameKeyOf } from './label-key.ts'
