import type { PostgresMigration } from '../migration.ts'

export const chatbotModelSettings: PostgresMigration = {
  id: 13,
  name: 'chatbot_model_settings',
  sql: `
    ALTER TABLE chatbots ADD COLUMN llm text;
  `,
}
