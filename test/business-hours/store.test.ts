import { expect, test } from 'bun:test'
import type { BusinessHoursRow } from '../../server/business-hours/store.ts'
import { onBothDatabases } from '../support/both-databases.ts'

const at = '2026-05-01T10:00:00.000Z'
const row = (extra: Partial<BusinessHoursRow> = {}): BusinessHoursRow => ({
  chatbot_id: 'B',
  timezone: 'Europe/Berlin',
  weekly: '{"mon":[{"from":"09:00","until":"17:00"}]}',
  holidays: '[]',
  closed_text: null,
  updated_at: at,
  ...extra,
})

onBothDatabases('the business hours store', (database) => {
  test("keeps one set of hours per chatbot, replaced whole, removed with the chatbot or on request", async () => {
    const { exec, stores, units } = database()
    await exec(`INSERT INTO workspaces (id, name, created_at) VALUES ('W', 'w', '${at}'), ('W2', 'w2', '${at}')`)
    await exec(`INSERT INTO chatbots (id, workspace_id, name, created_at) VALUES ('B', 'W', 'b', '${at}'), ('C', 'W', 'c', '${at}')`)
    expect(await stores.businessHours.chatbotInWorkspace('W', 'B')).toBe(true)
    expect(await stores.businessHours.chatbotInWorkspace('W2', 'B')).toBe(false)
    expect(await stores.businessHours.get('B')).toBeUndefined()
    await units.unit((tx) => tx.businessHours.put(row()))
    expect(await stores.businessHours.get('B')).toEqual(row())
    const changed = row({ timezone: 'America/New_York', holidays: '[{"date":"2026-12-25"}]', closed_text: 'Back at 9', updated_at: '2026-05-02T10:00:00.000Z' })
    await units.unit((tx) => tx.businessHours.put(changed))
    expect(await stores.businessHours.get('B')).toEqual(changed)
    await units.unit((tx) => tx.businessHours.put(row({ chatbot_id: 'C' })))
    expect(await units.unit((tx) => tx.businessHours.remove('B'))).toBe(true)
    expect(await units.unit((tx) => tx.businessHours.remove('B'))).toBe(false)
    expect(await stores.businessHours.get('B')).toBeUndefined()
    await exec("DELETE FROM chatbots WHERE id = 'C'")
    expect(await stores.businessHours.get('C')).toBeUndefined()
  })
})
