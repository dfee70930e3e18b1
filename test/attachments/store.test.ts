import { expect, test } from 'bun:test'
import type { AttachmentRow } from '../../server/attachments/store.ts'
import { onBothDatabases } from '../support/both-databases.ts'

const at = '2026-05-02T10:00:00.000Z'
const row = (id: string, conversation: string, size: number): AttachmentRow => ({
  id,
  workspace_id: 'W',
  chatbot_id: 'B',
  conversation_id: conversation,
  key_hash: 'k'.repeat(64),
  content_type: 'image/png',
  byte_size: size,
  filename: `${id}.png`,
  sha256: 's'.repeat(64),
  uploaded_by: 'visitor',
  created_at: at,
})
/** Every byte value, zeros and invalid UTF-8 included: what a BLOB and a bytea must keep as they are. */
const everyByte = Uint8Array.from({ length: 512 }, (_, i) => (i * 7) % 256)

onBothDatabases('the attachment store', (database) => {
  test('keeps a file’s row and its bytes exactly; counts a conversation’s files and bytes', async () => {
    const { exec, stores, units } = database()
    await exec(`INSERT INTO workspaces (id, name, created_at) VALUES ('W', 'w', '${at}')`)
    await exec(`INSERT INTO chatbots (id, workspace_id, name, created_at) VALUES ('B', 'W', 'b', '${at}')`)
    await exec(`INSERT INTO contacts (id, chatbot_id, created_at) VALUES ('K', 'B', '${at}')`)
    await exec(`INSERT INTO conversations (id, chatbot_id, contact_id, channel, status, created_at, last_message_at) VALUES
      ('C', 'B', 'K', 'web', 'bot', '${at}', '${at}'), ('D', 'B', 'K', 'web', 'bot', '${at}', '${at}')`)
    expect(await stores.attachments.usage('C')).toEqual({ files: 0, bytes: 0 })
    await units.unit(async (tx) => {
      await tx.attachments.insert(row('A1', 'C', everyByte.byteLength), everyByte)
      await tx.attachments.insert(row('A2', 'C', 3), new Uint8Array([0, 255, 0]))
      await tx.attachments.insert(row('A3', 'D', 1), new Uint8Array([1]))
    })
    expect(await stores.attachments.get('A1')).toEqual(row('A1', 'C', everyByte.byteLength))
    expect(await stores.attachments.get('nope')).toBeNull()
    const bytes = await stores.attachments.bytes('A1')
    expect(bytes).toBeInstanceOf(Uint8Array)
    expect(bytes).toEqual(everyByte)
    expect(await stores.attachments.bytes('A2')).toEqual(new Uint8Array([0, 255, 0]))
    expect(await stores.attachments.bytes('nope')).toBeNull()
    expect(await stores.attachments.usage('C')).toEqual({ files: 2, bytes: everyByte.byteLength + 3 })
    expect(await stores.attachments.usage('D')).toEqual({ files: 1, bytes: 1 })
  })

  test('a file for a conversation that is gone fails its unit, and nothing of the unit is stored', async () => {
    const { stores, units } = database()
    const failing = units.unit(async (tx) => {
      await tx.attachments.insert(row('A4', 'D', 1), new Uint8Array([4]))
      await tx.attachments.insert(row('A5', 'gone', 1), new Uint8Array([5]))
    })
    await expect(failing).rejects.toThrow()
    expect(await stores.attachments.get('A4')).toBeNull()
    expect(await stores.attachments.usage('D')).toEqual({ files: 1, bytes: 1 })
  })

  test('deleting the conversation deletes its files', async () => {
    const { exec, stores } = database()
    await exec(`DELETE FROM conversations WHERE id = 'C'`)
    expect(await stores.attachments.get('A1')).toBeNull()
    expect(await stores.attachments.usage('C')).toEqual({ files: 0, bytes: 0 })
  })
})
