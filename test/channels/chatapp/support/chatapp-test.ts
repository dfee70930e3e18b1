import type { AppDeps } from '../../../../server/app.ts'
import { type TestApp, testApp } from '../../../support/test-app.ts'
import { type FakeTime, fakeTime } from '../../../outbox/support/fake-time.ts'
import { type ChatappChat, postWebhook, userMessage } from './chatapp-chat.ts'
import { type FakeGraphApi, fakeGraphApi } from './fake-graph-api.ts'

export const USER = '447911123456'

/**
 * A Parley whose chatapp deliveries go to a fake provider on 127.0.0.1, on an outbox clock
 * the test moves, with helpers to talk to it as the user's phone would.
 */
export function chatappTestbed(env: Record<string, string> = {}, tuning: AppDeps['tuning'] = {}) {
  const graph = fakeGraphApi()
  const time: FakeTime = fakeTime()
  const app: TestApp = testApp({ PARLEY_OUTBOUND_ALLOW: '127.0.0.1', PARLEY_CHATAPP_API_URL: graph.url, ...env }, { outbox: { time, random: () => 0.5 }, ...tuning })
  let seen = 0

  return {
    app,
    graph,
    time,
    /** The user writes (text, a pick, ...); what the bot sent back in answer, once delivered. */
    async say(chat: ChatappChat, message: Record<string, unknown>, from = USER): Promise<string[]> {
      const posted = await postWebhook(app, chat, userMessage(chat, from, message))
      if (posted.status !== 200) throw new Error(`the webhook answered ${posted.status}: ${posted.text}`)
      return this.sent()
    },
    /** Sends what is due, then the messages the provider accepted since the last look, summarised. */
    async sent(): Promise<string[]> {
      await app.chatappOutbox.drain()
      const accepted = graph.accepted()
      const fresh = accepted.slice(seen)
      seen = accepted.length
      return fresh.map(summary)
    },
    /** The wamid of the latest accepted message whose summary starts with `prefix`. */
    wamidOf(prefix: string): string {
      const accepted = graph.accepted()
      for (let index = accepted.length - 1; index >= 0; index--) if (summary(accepted[index]).startsWith(prefix)) return graph.wamidOf(index)
      throw new Error(`no accepted message starts with ${prefix}`)
    },
    async close() {
      await app.close()
      graph.stop()
    },
  }
}

export type ChatappTestbed = ReturnType<typeof chatappTestbed>

/** A Cloud API message in one line: a text's body, `[buttons] text: A | B`, `[list] text: a, b`, `[image] link`, `[flow] cta`. */
export function summary(message: any): string {
  switch (message.type) {
    case 'text':
      return message.text.body
    case 'interactive': {
      const interactive = message.interactive
      if (interactive.type === 'button') return `[buttons] ${interactive.body.text}: ${interactive.action.buttons.map((b: any) => b.reply.title).join(' | ')}`
      if (interactive.type === 'list') {
        const rows = interactive.action.sections.flatMap((section: any) => section.rows.map((row: any) => row.title))
        return `[list] ${interactive.body.text}: ${rows.join(', ')}`
      }
      return `[${interactive.type}] ${interactive.body.text}`
    }
    default:
      return `[${message.type}] ${message[message.type].link}`
  }
}
