import type { Migration } from '../migration.ts'

export const chatbotModelSettings: Migration = {
  id: 13,
  name: 'chatbot_model_settings',
  up(db) {
    db.exec(`
      -- A chatbot's LLM endpoint for its agent states, as JSON {base_url, model, temperature,
      -- api_key}; the key is write-only (answers mask it). NULL: no model set.
      ALTER TABLE chatbots ADD COLUMN llm TEXT;
    `)
  },
}
