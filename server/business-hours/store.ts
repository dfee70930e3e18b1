/** A chatbot's business hours as stored: the weekly spans and holidays are JSON text. */
export interface BusinessHoursRow {
  chatbot_id: string
  timezone: string
  weekly: string
  holidays: string
  closed_text: string | null
  updated_at: string
}

/** The only code that reads and writes business hours (docs/architecture.md, "The store seam"). */
export interface BusinessHoursStore {
  /** Whether the chatbot is the workspace's. */
  chatbotInWorkspace(workspaceId: string, chatbotId: string): Promise<boolean>
  get(chatbotId: string): Promise<BusinessHoursRow | undefined>
  /** Sets them, replacing any. Run it in a unit. */
  put(row: BusinessHoursRow): Promise<void>
  /** false when there were none. Run it in a unit. */
  remove(chatbotId: string): Promise<boolean>
}
