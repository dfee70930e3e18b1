import { expect } from 'bun:test'
import { activePerson, browser } from '../people/support/people-context.ts'
import { scenarios } from '../support/scenarios.ts'
import type { TestApp } from '../support/test-app.ts'
import { createChatbot, UNKNOWN_ID } from '../flows/flow-fixtures.ts'

const DAY_MS = 24 * 3600 * 1000
const dayOf = (daysAgo: number) => new Date(Date.now() - daysAgo * DAY_MS).toISOString()

/** Conversations as the conversation service stores them, started `daysAgo` days ago, in a status. */
function seedConversations(app: TestApp, chatbotId: string, started: { daysAgo: number; status: 'bot' | 'handoff' | 'closed' }[]) {
  let n = 0
  for (const { daysAgo, status } of started) {
    n += 1
    const at = dayOf(daysAgo)
    const contact = `${chatbotId.slice(0, 20)}C${String(n).padStart(5, '0')}`
    app.db.query('INSERT INTO contacts (id, chatbot_id, created_at) VALUES (?, ?, ?)').run(contact, chatbotId, at)
    app.db
      .query(
        "INSERT INTO conversations (id, chatbot_id, contact_id, channel, status, created_at, last_message_at, seq) VALUES (?, ?, ?, 'web', ?, ?, ?, (SELECT coalesce(max(seq), 0) + 1 FROM conversations))",
      )
      .run(`${chatbotId.slice(0, 20)}V${String(n).padStart(5, '0')}`, chatbotId, contact, status, at, at)
  }
}

/** Agent runs as server/autopilot/ stores them, each in the chatbot's first seeded conversation. */
function seedRuns(app: TestApp, chatbotId: string, runs: { daysAgo: number; status: 'done' | 'dropped'; prompt: number; completion: number }[]) {
  const conversation = `${chatbotId.slice(0, 20)}V00001`
  runs.forEach(({ daysAgo, status, prompt, completion }, n) => {
    const at = dayOf(daysAgo)
    app.db
      .query(
        `INSERT INTO agent_runs (id, conversation_id, chatbot_id, state, status, model_calls, prompt_tokens, completion_tokens, total_tokens, created_at, finished_at)
         VALUES (?, ?, ?, 'help', ?, 1, ?, ?, ?, ?, ?)`,
      )
      .run(`${chatbotId.slice(0, 20)}R${String(n).padStart(5, '0')}`, conversation, chatbotId, status, prompt, completion, prompt + completion, at, at)
  })
}

async function setup(app: TestApp) {
  const botId = await createChatbot(app, 'Busy')
  const quietId = await createChatbot(app, 'Quiet')
  seedConversations(app, botId, [
    { daysAgo: 0, status: 'bot' },
    { daysAgo: 0, status: 'handoff' },
    { daysAgo: 0, status: 'handoff' },
    { daysAgo: 3, status: 'closed' },
    { daysAgo: 29, status: 'handoff' },
    // Older than the 30 days shown: not counted per day, but still waiting for a person.
    { daysAgo: 30, status: 'handoff' },
    { daysAgo: 90, status: 'closed' },
  ])
  seedRuns(app, botId, [
    { daysAgo: 0, status: 'done', prompt: 60, completion: 40 },
    { daysAgo: 0, status: 'dropped', prompt: 5, completion: 0 },
    { daysAgo: 3, status: 'done', prompt: 30, completion: 20 },
    // Older than the 30 days.
    { daysAgo: 31, status: 'done', prompt: 7, completion: 0 },
  ])
  // One visitor of a handoff waits for a person (as the desk's turn writer records it); the others were answered.
  const id = (n: number) => `${botId.slice(0, 20)}V${String(n).padStart(5, '0')}`
  app.db.query('UPDATE desk_threads SET waiting_since = ? WHERE conversation_id = ?').run(dayOf(0), id(2))
  // Ratings as the widget stores them: four in the 30 days (two good, one neutral, one bad), one older.
  const rate = app.db.query('INSERT INTO conversation_ratings (conversation_id, scale, score, comment, created_at) VALUES (?, ?, ?, NULL, ?)')
  rate.run(id(1), 'stars', 5, dayOf(0))
  rate.run(id(2), 'thumbs', 1, dayOf(1))
  rate.run(id(3), 'stars', 3, dayOf(2))
  rate.run(id(4), 'thumbs', 0, dayOf(3))
  rate.run(id(7), 'stars', 5, dayOf(90))
  const otherKey = app.otherWorkspaceKey()
  const agent = await activePerson(app, 'sam@acme.io', 'agent')
  return { botId, quietId, otherKey, agent }
}
type Ctx = Awaited<ReturnType<typeof setup>>
const activity = (chatbotId: string) => `/api/dev/v1/chatbots/${chatbotId}/activity`

scenarios<Ctx>('chatbot activity', setup, [
  {
    name: 'the last 30 UTC days are counted, oldest first and today last, empty days as 0',
    method: 'GET',
    path: (c) => activity(c.botId),
    status: 200,
    check: ({ body }) => {
      expect(body.days).toHaveLength(30)
      expect(body.days[29].date).toBe(dayOf(0).slice(0, 10))
      expect(body.days[0].date).toBe(dayOf(29).slice(0, 10))
      const counts = body.days.map((d: { conversations: number }) => d.conversations)
      expect(counts[29]).toBe(3)
      expect(counts[26]).toBe(1)
      expect(counts[0]).toBe(1)
      expect(counts.reduce((a: number, b: number) => a + b, 0)).toBe(5)
    },
  },
  {
    name: 'agent token usage is counted per UTC day the runs finished, and summed over the 30 days; older runs are not',
    method: 'GET',
    path: (c) => activity(c.botId),
    status: 200,
    check: ({ body }) => {
      const tokens = body.days.map((d: { agent_tokens: number }) => d.agent_tokens)
      expect(tokens[29]).toBe(105)
      expect(tokens[26]).toBe(50)
      expect(tokens.reduce((a: number, b: number) => a + b, 0)).toBe(155)
      expect(body.agent_usage).toEqual({ runs: 3, prompt_tokens: 95, completion_tokens: 60, total_tokens: 155 })
    },
  },
  { name: 'open handoffs count every conversation handed to a person, however old', method: 'GET', path: (c) => activity(c.botId), status: 200, check: ({ body }) => expect(body.open_handoffs).toBe(4) },
  {
    name: 'waiting counts the visitors waiting for a person now (written to a handoff, not answered yet)',
    method: 'GET',
    path: (c) => activity(c.botId),
    status: 200,
    check: ({ body }) => expect(body.waiting).toBe(1),
  },
  {
    name: "ratings of the 30 days: how many, good (thumbs up, 4-5 stars), neutral, bad, and CSAT (the good ones' share)",
    method: 'GET',
    path: (c) => activity(c.botId),
    status: 200,
    check: ({ body }) => expect(body.ratings).toEqual({ count: 4, good: 2, neutral: 1, bad: 1, csat: 0.5 }),
  },
  {
    name: 'a chatbot without conversations has 30 zero days and no handoffs',
    method: 'GET',
    path: (c) => activity(c.quietId),
    status: 200,
    check: ({ body }) => {
      expect(body.days.every((d: { conversations: number }) => d.conversations === 0)).toBe(true)
      expect(body.open_handoffs).toBe(0)
      expect(body.waiting).toBe(0)
      expect(body.ratings).toEqual({ count: 0, good: 0, neutral: 0, bad: 0, csat: null })
      expect(body.days.every((d: { agent_tokens: number }) => d.agent_tokens === 0)).toBe(true)
      expect(body.agent_usage).toEqual({ runs: 0, prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 })
    },
  },
  { name: "another workspace's chatbot answers 404", method: 'GET', path: (c) => activity(c.botId), key: (c) => c.otherKey, status: 404, code: 'not_found' },
  { name: 'an unknown chatbot answers 404', method: 'GET', path: activity(UNKNOWN_ID), status: 404, code: 'not_found' },
  { name: 'without a key the answer is 401', method: 'GET', path: (c) => activity(c.botId), key: null, status: 401, code: 'unauthorized' },
  { name: 'an agent may read it (agents read everything)', method: 'GET', path: (c) => activity(c.botId), key: null, headers: (c) => browser(c.agent.cookie), status: 200 },
])
