import type { DevApi } from './start-parley.ts'

/**
 * Makes a chatbot whose published flow answers every message with "You said: …", and a web
 * integration for it; resolves with the chatbot, its widget key and the widget socket's URL on `port`.
 */
export async function publishEchoBot(api: DevApi, port: string, names: { chatbot: string; site: string }) {
  const bot = await api('POST', '/chatbots', { name: names.chatbot })
  const flow = await api('POST', `/chatbots/${bot.id}/flows`, {
    name: 'Echo',
    type: 'conversation',
    flow: {
      version: 1,
      start: 'listen',
      variables: { last: { type: 'string' } },
      states: {
        listen: { say: [{ text: 'Say something.' }], capture: { var: 'last', as: 'text' }, next: 'answer' },
        answer: { say: [{ text: 'You said: {{last}}' }], capture: { var: 'last', as: 'text' }, next: 'answer' },
      },
    },
  })
  await api('POST', `/chatbots/${bot.id}/flows/${flow.id}/publish`)
  const web = await api('POST', `/chatbots/${bot.id}/integrations/web`, { name: names.site })
  return { bot, widgetKey: web.config.widget_key as string, socketUrl: `ws://127.0.0.1:${port}/widget/v1/socket?key=${web.config.widget_key}` }
}
