import { expect, test } from 'bun:test'
import { onBothDatabases } from '../support/both-databases.ts'

const T = (day: number, hour = 10) => `2026-06-${String(day).padStart(2, '0')}T${String(hour).padStart(2, '0')}:00:00.000Z`
const SINCE = T(2, 0)

onBothDatabases('the activity store', (database) => {
  test('answers a chatbot’s overview: per UTC day, from `since` on, another chatbot’s rows left out', async () => {
    const { exec, stores } = database()
    await exec(`INSERT INTO workspaces (id, name, created_at) VALUES ('W', 'w', '${T(1)}')`)
    await exec(`INSERT INTO chatbots (id, workspace_id, name, created_at) VALUES ('B', 'W', 'b', '${T(1)}'), ('O', 'W', 'other', '${T(1)}')`)
    await exec(`INSERT INTO contacts (id, chatbot_id, created_at) VALUES ('K', 'B', '${T(1)}'), ('KO', 'O', '${T(1)}')`)
    const conversation = (id: string, bot: string, status: string, at: string) =>
      `('${id}', '${bot}', '${bot === 'B' ? 'K' : 'KO'}', 'web', '${status}', '${at}', '${at}')`
    await exec(`INSERT INTO conversations (id, chatbot_id, contact_id, channel, status, created_at, last_message_at) VALUES
      ${conversation('C0', 'B', 'closed', T(1, 23))}, ${conversation('C1', 'B', 'bot', T(2, 0))}, ${conversation('C2', 'B', 'handoff', T(2, 23))},
      ${conversation('C3', 'B', 'handoff', T(4))}, ${conversation('CO', 'O', 'handoff', T(4))}`)
    await exec(`UPDATE desk_threads SET waiting_since = '${T(4)}' WHERE conversation_id IN ('C3', 'CO')`)
    const run = (id: string, status: string, outcome: string | null, finished: string | null, tokens: number, failure: string | null = null, bot = 'B') =>
      `('${id}', 'C1', '${bot}', 'agent', '${status}', ${outcome ? `'${outcome}'` : 'NULL'}, ${tokens}, ${tokens * 2}, ${tokens * 3}, '${T(1)}', ${finished ? `'${finished}'` : 'NULL'}, ${failure ? `'${failure}'` : 'NULL'})`
    await exec(`INSERT INTO agent_runs (id, conversation_id, chatbot_id, state, status, outcome, prompt_tokens, completion_tokens, total_tokens, created_at, finished_at, failure) VALUES
      ${run('R1', 'done', 'answered', T(2), 10)}, ${run('R2', 'done', 'failed', T(2, 12), 1, '{"kind":"timeout","message":"slow","http_status":null}')},
      ${run('R3', 'done', 'failed', T(3), 2, null)}, ${run('R4', 'pending', null, null, 0)}, ${run('R5', 'done', 'answered', T(1), 1000)},
      ${run('R6', 'done', 'failed', T(3), 1000, null, 'O')}, ${run('R7', 'dropped', null, T(3), 5)}`)
    await exec(`INSERT INTO conversation_ratings (conversation_id, scale, score, created_at) VALUES ('C1', 'thumbs', 1, '${T(3)}'), ('C2', 'stars', 2, '${T(3)}'), ('C0', 'thumbs', 0, '${T(1)}')`)

    const activity = stores.chatbotActivity
    expect(await activity.chatbotExists('W', 'B')).toBe(true)
    expect(await activity.chatbotExists('elsewhere', 'B')).toBe(false)
    const byDay = <Row extends { day: string }>(rows: Row[]) => [...rows].sort((a, b) => a.day.localeCompare(b.day))
    expect(byDay(await activity.conversationsPerDay('B', SINCE))).toEqual([{ day: '2026-06-02', n: 2 }, { day: '2026-06-04', n: 1 }])
    expect(byDay(await activity.agentTokensPerDay('B', SINCE))).toEqual([
      { day: '2026-06-02', runs: 2, prompt_tokens: 11, completion_tokens: 22, total_tokens: 33 },
      { day: '2026-06-03', runs: 2, prompt_tokens: 7, completion_tokens: 14, total_tokens: 21 },
    ])
    expect(await activity.countWithStatus('B', 'handoff')).toBe(2)
    expect(await activity.countWithStatus('B', 'closed')).toBe(1)
    expect(await activity.countWaiting('B')).toBe(1)
    expect([...(await activity.ratingsSince('B', SINCE))].sort((a, b) => a.rating.localeCompare(b.rating))).toEqual([{ rating: 'bad', n: 1 }, { rating: 'good', n: 1 }])
    expect(byDay(await activity.agentFailuresPerDay('B', SINCE))).toEqual([{ day: '2026-06-02', n: 1 }, { day: '2026-06-03', n: 1 }])
    expect(await activity.latestAgentFailures('B', SINCE, 5)).toEqual([
      { conversation_id: 'C1', finished_at: T(3), state: 'agent', failure: null },
      { conversation_id: 'C1', finished_at: T(2, 12), state: 'agent', failure: '{"kind":"timeout","message":"slow","http_status":null}' },
    ])
    expect(await activity.latestAgentFailures('B', SINCE, 1)).toHaveLength(1)
  })
})
