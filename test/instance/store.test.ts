import { expect, test } from 'bun:test'
import { onBothDatabases } from '../support/both-databases.ts'

onBothDatabases('the instance store', (database) => {
  test('knows no key it was not given', async () => {
    expect(await database().stores.instance.get('nothing')).toBeUndefined()
  })

  test('keeps the last value set for a key, through a unit', async () => {
    const { stores, units } = database()
    await units.unit((tx) => tx.instance.set('demo_chatbot_id', 'B1'))
    expect(await stores.instance.get('demo_chatbot_id')).toBe('B1')
    await units.unit((tx) => tx.instance.set('demo_chatbot_id', 'B2'))
    expect(await stores.instance.get('demo_chatbot_id')).toBe('B2')
  })

  test('keeps any text, as given', async () => {
    const { stores, units } = database()
    const text = `é 💬 "quoted" 'single' \\ ${'x'.repeat(10_000)}`
    await units.unit((tx) => tx.instance.set('text', text))
    expect(await stores.instance.get('text')).toBe(text)
  })
})
