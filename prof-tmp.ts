import { testApp } from './test/support/test-app.ts'
import { setUpWebChat } from './test/support/web-chat.ts'
const app = testApp()
if (process.env.CACHE) app.db.exec(`PRAGMA cache_size = ${process.env.CACHE}`)
if (process.env.TEMP) app.db.exec(`PRAGMA temp_store = ${process.env.TEMP}`)
const chat = await setUpWebChat(app, { flow: { version: 1, start: 'listen', variables: { last: { type: 'string' } }, states: { listen: { say: [{ text: 'Say something.' }], capture: { var: 'last', as: 'text' }, next: 'answer' }, answer: { say: [{ text: 'You said: {{last}}' }], capture: { var: 'last', as: 'text' }, next: 'answer' } } } })
const ctx = { chatbotId: chat.chatbotId, channel: 'web' as const, integrationId: chat.integrationId }
const convs: string[] = []
for (let i = 0; i < 1000; i++) {
  const contact = app.services.visitors.ensureContact(chat.chatbotId, { externalId: null, tokenHash: 'x' + i })
  convs.push(app.services.conversations.open(ctx, contact.id, null).id)
}
await Bun.sleep(10)
let n = 0
const N = 20000
const t = performance.now()
for (let b = 0; b < N / 500; b++) {
  app.db.exec('BEGIN IMMEDIATE')
  for (let k = 0; k < 500; k++) app.services.conversations.visitorSays(convs[(n++) % 1000]!, { clientId: `c${n}`, content: { kind: 'text', text: 'hello there' } }, ctx)
  app.db.exec('COMMIT')
}
console.log(`per visitorSays in big batches: ${((performance.now() - t) * 1000 / N).toFixed(1)} µs`)
