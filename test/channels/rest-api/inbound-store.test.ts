import { expect, test } from 'bun:test'
import { onBothDatabases } from '../../support/both-databases.ts'

const at = (minute: number) => `2026-06-01T10:${String(minute).padStart(2, '0')}:00.000Z`

onBothDatabases('the rest-api inbound store', (database) => {
  test('finds the latest conversation of the contact on the integration that is not closed', async () => {
    const { exec, stores } = database()
    await exec(`INSERT INTO workspaces (id, name, created_at) VALUES ('W', 'w', '${at(0)}')`)
    await exec(`INSERT INTO chatbots (id, workspace_id, name, created_at) VALUES ('B', 'W', 'b', '${at(0)}')`)
    await exec(`INSERT INTO integrations (id, chatbot_id, type, name, created_at) VALUES ('I', 'B', 'rest-api', 'api', '${at(0)}')`)
    await exec(`INSERT INTO contacts (id, chatbot_id, external_id, created_at) VALUES ('K', 'B', 'user-1', '${at(0)}'), ('L', 'B', 'user-2', '${at(0)}')`)
    await exec(`INSERT INTO conversations (id, seq, chatbot_id, contact_id, channel, integration_id, status, state, created_at, last_message_at) VALUES
      ('C1', 101, 'B', 'K', 'rest-api', 'I', 'bot', '{"at":"start"}', '${at(1)}', '${at(1)}'),
      ('C2', 102, 'B', 'K', 'rest-api', 'I', 'human', NULL, '${at(2)}', '${at(2)}'),
      ('C3', 103, 'B', 'K', 'rest-api', 'I', 'closed', NULL, '${at(3)}', '${at(3)}'),
      ('C4', 104, 'B', 'K', 'web', NULL, 'bot', NULL, '${at(4)}', '${at(4)}'),
      ('C5', 105, 'B', 'L', 'rest-api', 'I', 'closed', NULL, '${at(5)}', '${at(5)}')`)
    const { restApiInbound } = stores
    expect(await restApiInbound.latestOpenConversation('K', 'I')).toMatchObject({ id: 'C2', status: 'human', integration_id: 'I', created_at: at(2), state: null })
    expect(await restApiInbound.latestOpenConversation('L', 'I')).toBeUndefined()
    expect(await restApiInbound.latestOpenConversation('K', 'other')).toBeUndefined()
    await exec(`UPDATE conversations SET status = 'closed' WHERE id = 'C2'`)
    expect(await restApiInbound.latestOpenConversation('K', 'I')).toMatchObject({ id: 'C1', state: '{"at":"start"}', flow_version: null })
  })

  test("finds the user's message by client_id in any of their rest-api conversations, closed ones too", async () => {
    const { exec, stores } = database()
    await exec(`INSERT INTO messages (id, conversation_id, conversation_seq, role, client_id, content, created_at) VALUES
      ('M1', 'C3', 103, 'visitor', 'retry-1', '{"kind":"text","text":"hello"}', '${at(3)}'),
      ('M2', 'C3', 103, 'bot', 'retry-2', '{"kind":"text","text":"bot"}', '${at(3)}'),
      ('M3', 'C4', 104, 'visitor', 'retry-3', '{"kind":"text","text":"web"}', '${at(4)}')`)
    const { restApiInbound } = stores
    expect(await restApiInbound.findUserMessage('K', 'retry-1')).toEqual({
      id: 'M1',
      conversation_id: 'C3',
      role: 'visitor',
      client_id: 'retry-1',
      content: { kind: 'text', text: 'hello' },
      created_at: at(3),
    })
    // Only the user's own messages, and only on this channel.
    expect(await restApiInbound.findUserMessage('K', 'retry-2')).toBeUndefined()
    expect(await restApiInbound.findUserMessage('K', 'retry-3')).toBeUndefined()
    expect(await restApiInbound.findUserMessage('L', 'retry-1')).toBeUndefined()
  })
})
