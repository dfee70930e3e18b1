import { expect, test } from 'bun:test'
import type { LabelRow } from '../../server/labels/store.ts'
import { onBothDatabases } from '../support/both-databases.ts'

const at = (minute: number) => `2026-05-01T10:${String(minute).padStart(2, '0')}:00.000Z`
const label = (id: string, workspace: string, name: string, extra: Partial<LabelRow> = {}): LabelRow => ({
  id,
  workspace_id: workspace,
  name,
  name_key: name.toLowerCase(),
  color: 'blue',
  created_at: at(1),
  updated_at: null,
  ...extra,
})
const names = (rows: LabelRow[]) => rows.map((row) => row.name)

onBothDatabases('the label store', (database) => {
  test('keeps a set per workspace, by name, one label per name whatever its case', async () => {
    const { exec, stores, units } = database()
    await exec(`INSERT INTO workspaces (id, name, created_at) VALUES ('W', 'w', '${at(0)}'), ('W2', 'w2', '${at(0)}')`)
    expect(await units.unit((tx) => tx.labels.insert(label('L1', 'W', 'VIP', { color: 'purple' })))).toBe(true)
    expect(await units.unit((tx) => tx.labels.insert(label('L2', 'W', 'billing')))).toBe(true)
    expect(await units.unit((tx) => tx.labels.insert(label('L3', 'W', 'Ärger')))).toBe(true)
    // The same name in another case is refused, answered as false; the unit still commits what else it wrote.
    expect(await units.unit(async (tx) => [await tx.labels.insert(label('L4', 'W', 'vip')), await tx.labels.insert(label('L5', 'W', 'refund'))])).toEqual([false, true])
    // Another workspace has its own names.
    expect(await units.unit((tx) => tx.labels.insert(label('M1', 'W2', 'VIP')))).toBe(true)
    expect(names(await stores.labels.list('W'))).toEqual(['billing', 'refund', 'VIP', 'Ärger'])
    expect(await stores.labels.get('W', 'L1')).toEqual(label('L1', 'W', 'VIP', { color: 'purple' }))
    expect(await stores.labels.get('W2', 'L1')).toBeUndefined()
    expect(names(await stores.labels.byNameKeys('W', ['vip', 'ärger', 'none']))).toEqual(['VIP', 'Ärger'])
    expect(await stores.labels.byNameKeys('W', [])).toEqual([])
  })

  test('renames unless the name is another label’s; removes only within the workspace', async () => {
    const { stores, units } = database()
    const change = (name: string) => ({ name, name_key: name.toLowerCase(), color: 'red' as const, updated_at: at(5) })
    expect(await units.unit((tx) => tx.labels.update('W', 'L2', change('REFUND')))).toBe(false)
    expect(await units.unit((tx) => tx.labels.update('W', 'L2', change('Billing')))).toBe(true)
    expect(await stores.labels.get('W', 'L2')).toMatchObject({ name: 'Billing', color: 'red', updated_at: at(5) })
    expect(await units.unit((tx) => tx.labels.update('W2', 'L2', change('stolen')))).toBe(true)
    expect((await stores.labels.get('W', 'L2'))?.name).toBe('Billing')
    expect(await units.unit((tx) => tx.labels.remove('W2', 'L5'))).toBe(false)
    expect(await units.unit((tx) => tx.labels.remove('W', 'L5'))).toBe(true)
    expect(await stores.labels.get('W', 'L5')).toBeUndefined()
  })

  test('labels conversations and contacts of the workspace, once each; a deleted label comes off them', async () => {
    const { exec, stores, units } = database()
    await exec(`INSERT INTO chatbots (id, workspace_id, name, created_at) VALUES ('B', 'W', 'b', '${at(0)}'), ('B2', 'W2', 'b2', '${at(0)}')`)
    await exec(`INSERT INTO contacts (id, chatbot_id, details, created_at) VALUES ('K', 'B', '{}', '${at(0)}'), ('K2', 'B2', '{}', '${at(0)}')`)
    await exec(`INSERT INTO conversations (id, chatbot_id, contact_id, channel, status, created_at, last_message_at)
      VALUES ('C', 'B', 'K', 'web', 'bot', '${at(0)}', '${at(0)}'), ('C2', 'B2', 'K2', 'web', 'bot', '${at(0)}', '${at(0)}')`)
    const conversation = { kind: 'conversation' as const, id: 'C' }
    const contact = { kind: 'contact' as const, id: 'K' }
    expect(await stores.labels.chatbotWorkspace('B')).toBe('W')
    expect(await stores.labels.chatbotWorkspace('nope')).toBeUndefined()
    expect(await stores.labels.carrierInWorkspace('W', conversation)).toBe(true)
    expect(await stores.labels.carrierInWorkspace('W2', conversation)).toBe(false)
    expect(await stores.labels.carrierInWorkspace('W', contact)).toBe(true)
    expect(await stores.labels.carrierInWorkspace('W', { kind: 'contact', id: 'K2' })).toBe(false)
    await units.unit(async (tx) => {
      await tx.labels.attach(conversation, 'L1', at(6))
      await tx.labels.attach(conversation, 'L1', at(7))
      await tx.labels.attach(conversation, 'L3', at(7))
      await tx.labels.attach(contact, 'L1', at(7))
    })
    expect(names(await stores.labels.carried('W', conversation))).toEqual(['VIP', 'Ärger'])
    expect(await stores.labels.carried('W2', conversation)).toEqual([])
    expect(names(await stores.labels.carried('W', contact))).toEqual(['VIP'])
    expect(await stores.labels.conversationNameKeys('C')).toEqual(['vip', 'ärger'])
    expect(await units.unit((tx) => tx.labels.detach(conversation, 'L3'))).toBe(true)
    expect(await units.unit((tx) => tx.labels.detach(conversation, 'L3'))).toBe(false)
    expect(await units.unit((tx) => tx.labels.remove('W', 'L1'))).toBe(true)
    expect(await stores.labels.carried('W', conversation)).toEqual([])
    expect(await stores.labels.carried('W', contact)).toEqual([])
  })
})
