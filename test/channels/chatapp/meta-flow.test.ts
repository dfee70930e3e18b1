import { afterEach, describe, expect, test } from 'bun:test'
import type { ConversationFlow } from '../../../server/flow-language/conversation-flow-schema.ts'
import { setUpChatappChat, text } from './support/chatapp-chat.ts'
import { type ChatappTestbed, chatappTestbed } from './support/chatapp-test.ts'

/** The newsletter form of docs/meta-flows.md, with an example value for the screen's data. */
const NEWSLETTER = {
  version: '7.0',
  screens: [
    {
      id: 'WELCOME',
      title: 'Welcome',
      terminal: true,
      data: { topic: { type: 'string', __example__: 'Product news' } },
      layout: {
        type: 'SingleColumnLayout',
        children: [
          { type: 'TextHeading', text: '${data.topic}' },
          { type: 'TextInput', name: 'email', label: 'Email', 'input-type': 'email', required: true },
          { type: 'Footer', label: 'Subscribe', 'on-click-action': { name: 'complete', payload: { email: '${form.email}' } } },
        ],
      },
    },
  ],
}

const offerFlow = (metaFlowId: string): ConversationFlow => ({
  version: 1,
  start: 'offer',
  states: {
    offer: {
      say: [{ text: 'Join our newsletter?' }, { meta_flow: { flow_id: metaFlowId, cta: 'Sign up' } }],
      on: [{ match: '^\\[form Newsletter\\]', to: 'thanks' }, { to: 'offer' }],
    },
    thanks: { say: [{ text: 'Thanks, you are subscribed.' }], end: true },
  },
})

let bed: ChatappTestbed
afterEach(async () => {
  await bed.close()
})

/** A chatbot whose published conversation flow offers the published meta flow "Newsletter". */
async function setUp() {
  bed = chatappTestbed()
  const chat = await setUpChatappChat(bed.app, bed.graph, { flow: null })
  const call = async (method: string, path: string, body?: unknown) => {
    const result = await bed.app.call(method, chat.path(path), { body })
    if (result.status >= 300) throw new Error(`${method} ${path}: ${result.status} ${result.text}`)
    return result.body
  }
  const meta = await call('POST', '/flows', { name: 'Newsletter', type: 'meta', flow: NEWSLETTER })
  await call('POST', `/flows/${meta.id}/publish`)
  const main = await call('POST', '/flows', { name: 'Main', type: 'conversation', flow: offerFlow(meta.id) })
  await call('POST', `/flows/${main.id}/publish`)
  return { chat, metaId: meta.id as string, call }
}

const completion = (token: string, answered: string, fields: Record<string, unknown>) => ({
  type: 'interactive',
  context: { from: '15550783881', id: answered },
  interactive: { type: 'nfm_reply', nfm_reply: { name: 'flow', body: 'Sent', response_json: JSON.stringify({ ...fields, flow_token: token }) } },
})

describe('a meta flow sent through the chatapp channel', () => {
  test('goes as a flow message built from the published flow, and its completion is an answer the flow can match, kept for agents', async () => {
    const { chat, metaId } = await setUp()
    bed.graph.registerFlow('Newsletter')
    expect(await bed.say(chat, text('Hi'))).toEqual(['Join our newsletter?', '[flow] Sign up'])
    const [conversation] = (await bed.app.call('GET', chat.path('/conversations'))).body.items
    const flowMessage = bed.graph.accepted()[1]
    expect(flowMessage.interactive).toEqual({
      type: 'flow',
      body: { text: 'Sign up' },
      action: {
        name: 'flow',
        parameters: {
          flow_message_version: '3',
          flow_token: `parley.${conversation.id}.${metaId}`,
          flow_name: 'Newsletter',
          flow_cta: 'Sign up',
          mode: 'published',
          flow_action: 'navigate',
          flow_action_payload: { screen: 'WELCOME', data: { topic: 'Product news' } },
        },
      },
    })

    const token = flowMessage.interactive.action.parameters.flow_token
    expect(await bed.say(chat, completion(token, bed.wamidOf('[flow] Sign up'), { email: 'ada@lovelace.dev' }))).toEqual(['Thanks, you are subscribed.'])
    const messages = (await bed.app.call('GET', chat.path(`/conversations/${conversation.id}/messages?limit=200`))).body.items
    const form = messages.find((message: any) => message.role === 'visitor' && message.content.text.startsWith('[form'))
    expect(form.content).toEqual({ kind: 'text', text: '[form Newsletter] email: ada@lovelace.dev' })
    const [inbound] = (await bed.app.call('GET', chat.path(`/integrations/chatapp/inbound?conversation_id=${conversation.id}&limit=1`))).body.items
    expect(inbound).toMatchObject({ message_id: form.id, type: 'interactive', form_response: { email: 'ada@lovelace.dev', flow_token: token } })
  })

  test('a flow the provider does not know by that name goes as its call to action in text, and the log says why', async () => {
    const { chat } = await setUp()
    expect(await bed.say(chat, text('Hi'))).toEqual(['Join our newsletter?', 'Sign up'])
    const refused = bed.graph.received.find((request) => request.status !== 200)
    expect(refused?.status).toBe(400)
    expect(refused?.json.interactive.type).toBe('flow')
    const [item] = (await bed.app.call('GET', chat.path('/integrations/chatapp/deliveries?limit=4'))).body.items.filter((d: any) => d.type === 'interactive.flow')
    expect(item).toMatchObject({ status: 'accepted', attempts: 1, last_error: null, provider_message_id: expect.stringMatching(/^wamid\./) })
    expect(item.note).toStartWith('the provider refused the flow message (Graph API error 131009: Parameter value is not valid (Flow with name Newsletter does not exist.)')
    expect(item.note).toEndWith('its call to action went as text')
  })

  test('a meta flow that is no longer published goes as its call to action in text', async () => {
    const { chat, metaId, call } = await setUp()
    await call('DELETE', `/flows/${metaId}`)
    expect(await bed.say(chat, text('Hi'))).toEqual(['Join our newsletter?', 'Sign up'])
    const item = (await bed.app.call('GET', chat.path('/integrations/chatapp/deliveries?limit=1'))).body.items[0]
    expect(item).toMatchObject({ type: 'text', adaptation: `meta flow ${metaId} is not published; its call to action went as text` })
  })
})
