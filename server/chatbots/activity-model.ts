import { type Static, t } from 'elysia'

export const ChatbotActivity = t.Object({
  days: t.Array(
    t.Object({
      date: t.String({ format: 'date', description: 'a UTC day', examples: ['2026-11-22'] }),
      conversations: t.Integer({ minimum: 0, description: 'conversations started that day, in any channel' }),
    }),
    { description: 'the last 30 UTC days, oldest first, today last; days without conversations count 0' },
  ),
  open_handoffs: t.Integer({ minimum: 0, description: 'conversations handed to a person and not yet handed back or closed' }),
})
export type ChatbotActivity = Static<typeof ChatbotActivity>
