import { describe, expect, test } from 'bun:test'
import { type CloudMessage, type OutboundContext, toCloudMessages } from '../../../server/channels/chatapp/cloud-api-messages.ts'
import type { MetaFlowView } from '../../../server/channels/chatapp/meta-flow-message.ts'
import { offeredPick, providerRowId } from '../../../server/channels/chatapp/reply-ids.ts'
import type { Content } from '../../../server/protocol/widget-protocol.ts'
import { checkMessage } from './support/fake-graph-api.ts'

const SIGN_UP: MetaFlowView = {
  name: 'Sign up',
  definition: {
    version: '7.0',
    screens: [
      {
        id: 'WELCOME',
        title: 'Welcome',
        terminal: true,
        data: { plan: { type: 'string', __example__: 'pro' } },
        layout: { type: 'SingleColumnLayout', children: [{ type: 'Footer', label: 'Done', 'on-click-action': { name: 'complete', payload: {} } }] },
      },
    ],
  },
}

const context: OutboundContext = {
  to: '447911123456',
  flowToken: (flowId) => `parley.01JD3Q3M9Z5W6X7Y8Z9A0B1C2D.${flowId}`,
  metaFlow: (flowId) => (flowId === 'published' ? SIGN_UP : null),
}

const send = (content: Content) => toCloudMessages(content, context)
/** The provider's own view of each message: the rule it breaks, or null. */
const verdicts = (messages: CloudMessage[]) => messages.map((message) => checkMessage(message.body, new Set([SIGN_UP.name])))
const words = (count: number, word = 'word') => Array.from({ length: count }, (_, n) => `${word}${n}`).join(' ')
const buttons = (count: number, title = (n: number) => `Option ${n}`) => Array.from({ length: count }, (_, n) => ({ id: `opt-${n}`, title: title(n) }))

describe('Parley messages as Cloud API messages', () => {
  test('a text is a text message to the user, with a link preview only when it carries a link', () => {
    expect(send({ kind: 'text', text: 'Hello there' })).toEqual([
      { type: 'text', adaptation: null, body: { messaging_product: 'whatsapp', recipient_type: 'individual', to: '447911123456', type: 'text', text: { body: 'Hello there' } } },
    ])
    expect(send({ kind: 'text', text: 'See https://example.com/pricing' })[0]?.body.text).toEqual({ body: 'See https://example.com/pricing', preview_url: true })
    expect(send({ kind: 'text', text: 'No link: example.com' })[0]?.body.text).toEqual({ body: 'No link: example.com' })
  })

  test('a text over 4096 characters goes as several, split between words, nothing lost', () => {
    const long = words(1200)
    const messages = send({ kind: 'text', text: long })
    expect(messages.length).toBe(Math.ceil(long.length / 4096))
    const bodies = messages.map((message) => (message.body.text as { body: string }).body)
    for (const body of bodies) expect(body.length).toBeLessThanOrEqual(4096)
    expect(bodies.join(' ')).toBe(long)
    expect(messages[0]?.adaptation).toContain(`went as ${messages.length} messages`)
    expect(verdicts(messages)).toEqual(messages.map(() => null))
  })

  test('up to 3 buttons are reply buttons with their ids and titles', () => {
    const [message] = send({ kind: 'buttons', text: 'Pick one', buttons: [{ id: 'sales', title: 'Sales' }, { id: 'support', title: 'Support' }] })
    expect(message?.type).toBe('interactive.button')
    expect(message?.body.interactive).toEqual({
      type: 'button',
      body: { text: 'Pick one' },
      action: {
        buttons: [
          { type: 'reply', reply: { id: 'sales', title: 'Sales' } },
          { type: 'reply', reply: { id: 'support', title: 'Support' } },
        ],
      },
    })
    expect(message?.adaptation).toBeNull()
  })

  test('button titles over 20 characters are cut, and kept unique', () => {
    const [message] = send({
      kind: 'buttons',
      text: 'Which one?',
      buttons: [
        { id: 'a', title: 'Talk to the sales team today' },
        { id: 'b', title: 'Talk to the sales team tomorrow' },
        { id: 'c', title: 'Later' },
      ],
    })
    const titles = (message?.body.interactive as any).action.buttons.map((button: any) => button.reply.title)
    expect(titles).toEqual(['Talk to the sales t…', 'Talk to the sales… 2', 'Later'])
    expect(message?.adaptation).toContain('button titles shortened to 20 characters')
    expect(verdicts([message!])).toEqual([null])
  })

  test('more than 3 buttons become a list of rows with the same ids, and a pick of one is read back as a button', () => {
    const offered: Content = { kind: 'buttons', text: 'Which plan?', buttons: buttons(5) }
    const [message] = send(offered)
    expect(message?.type).toBe('interactive.list')
    expect(message?.body.interactive).toEqual({
      type: 'list',
      body: { text: 'Which plan?' },
      action: { button: 'Choose one', sections: [{ rows: buttons(5) }] },
    })
    expect(message?.adaptation).toBe('5 buttons went as a list (at most 3 buttons per message)')
    expect(verdicts([message!])).toEqual([null])
    expect(offeredPick(offered as any, 'opt-3')).toEqual({ reply_to: 'button', id: 'opt-3', title: 'Option 3' })
  })

  test('a list text over 4096 characters goes ahead as text; the list carries its last part', () => {
    const long = words(1000)
    const messages = send({ kind: 'list', text: long, button: 'Open', sections: [{ rows: [{ id: 'a', title: 'A' }] }] })
    expect(messages.map((message) => message.type)).toEqual(['text', 'interactive.list'])
    const list = messages[1]?.body.interactive as any
    expect(list.body.text.length).toBeLessThanOrEqual(4096)
    expect(`${(messages[0]?.body.text as any).body} ${list.body.text}`.replace(/\s+/g, ' ')).toBe(long)
    expect(messages[1]?.adaptation).toContain('went ahead as text')
    expect(verdicts(messages)).toEqual([null, null])
  })

  test('a list of more than 10 rows goes as several lists of at most 10, numbered, each one the provider takes', () => {
    const rows = Array.from({ length: 23 }, (_, n) => ({ id: `r${n}`, title: `Row ${n}` }))
    const messages = send({ kind: 'list', text: 'Pick a row', button: 'Rows', sections: [{ title: 'First', rows: rows.slice(0, 12) }, { title: 'Second', rows: rows.slice(12) }] })
    expect(messages).toHaveLength(3)
    const lists = messages.map((message) => message.body.interactive as any)
    expect(lists.map((list) => list.body.text)).toEqual(['Pick a row (1/3)', 'Pick a row (2/3)', 'Pick a row (3/3)'])
    expect(lists.map((list) => list.action.sections.map((section: any) => `${section.title}:${section.rows.length}`))).toEqual([['First:10'], ['First:2', 'Second:8'], ['Second:3']])
    expect(lists.flatMap((list) => list.action.sections.flatMap((section: any) => section.rows.map((row: any) => row.id)))).toEqual(rows.map((row) => row.id))
    expect(messages[0]?.adaptation).toContain('23 rows went as 3 lists')
    expect(verdicts(messages)).toEqual([null, null, null])
  })

  test('list texts are cut to the provider limits: button 20, section 24, row title 24, description 72', () => {
    const [message] = send({
      kind: 'list',
      text: 'Options',
      button: 'See every option we have',
      sections: [{ title: 'A section title that is far too long', rows: [{ id: 'x', title: 'A row title that is far too long', description: 'd'.repeat(100) }] }],
    })
    const list = message?.body.interactive as any
    expect(list.action.button).toBe('See every option we…')
    expect(list.action.sections[0].title).toHaveLength(24)
    expect(list.action.sections[0].rows[0].title).toHaveLength(24)
    expect(list.action.sections[0].rows[0].description).toHaveLength(72)
    expect(message?.adaptation).toContain('the list button "See every option we have" was shortened')
    expect(verdicts([message!])).toEqual([null])
  })

  test('several sections of which one has no title are merged into one (the provider wants a title on each)', () => {
    const [message] = send({ kind: 'list', text: 'Options', button: 'Open', sections: [{ title: 'Named', rows: [{ id: 'a', title: 'A' }] }, { rows: [{ id: 'b', title: 'B' }] }] })
    expect((message?.body.interactive as any).action.sections).toEqual([{ rows: [{ id: 'a', title: 'A' }, { id: 'b', title: 'B' }] }])
    expect(verdicts([message!])).toEqual([null])
  })

  test('a row id over 200 characters goes as a digest, and a pick of the digest is read back as the row', () => {
    const id = 'r'.repeat(256)
    const offered: Content = { kind: 'list', text: 'Options', button: 'Open', sections: [{ rows: [{ id, title: 'Long id' }] }] }
    const [message] = send(offered)
    const sent = (message?.body.interactive as any).action.sections[0].rows[0].id
    expect(sent).toBe(providerRowId(id))
    expect(sent.length).toBeLessThanOrEqual(200)
    expect(verdicts([message!])).toEqual([null])
    expect(offeredPick(offered as any, sent)).toEqual({ reply_to: 'row', id, title: 'Long id' })
    expect(offeredPick(offered as any, 'unknown')).toBeNull()
  })

  test('an interactive text over 1024 characters goes ahead as text; the buttons carry its last part', () => {
    const long = words(300)
    const messages = send({ kind: 'buttons', text: long, buttons: [{ id: 'ok', title: 'OK' }] })
    expect(messages.map((message) => message.type)).toEqual(['text', 'interactive.button'])
    const body = (messages[1]?.body.interactive as any).body.text as string
    expect(body.length).toBeLessThanOrEqual(1024)
    expect(`${(messages[0]?.body.text as any).body} ${body}`.replace(/\s+/g, ' ')).toBe(long)
    expect(verdicts(messages)).toEqual([null, null])
  })

  test.each([
    ['image', { type: 'image', url: 'https://cdn.example.com/a.png', caption: 'A cat' }, 'image', { link: 'https://cdn.example.com/a.png', caption: 'A cat' }],
    ['video', { type: 'video', url: 'https://cdn.example.com/a.mp4' }, 'video', { link: 'https://cdn.example.com/a.mp4' }],
    ['audio', { type: 'audio', url: 'https://cdn.example.com/a.ogg' }, 'audio', { link: 'https://cdn.example.com/a.ogg' }],
    ['file, with its name', { type: 'file', url: 'https://cdn.example.com/x', filename: 'Terms.pdf', caption: 'Our terms' }, 'document', { link: 'https://cdn.example.com/x', filename: 'Terms.pdf', caption: 'Our terms' }],
    ['file, named after its URL', { type: 'file', url: 'https://cdn.example.com/files/price%20list.pdf' }, 'document', { link: 'https://cdn.example.com/files/price%20list.pdf', filename: 'price list.pdf' }],
  ] as const)('media by link: %s', (_, media, type, payload) => {
    const messages = send({ kind: 'media', media: { ...media } })
    expect(messages).toEqual([{ type, adaptation: null, body: { messaging_product: 'whatsapp', recipient_type: 'individual', to: '447911123456', type, [type]: payload } }])
    expect(verdicts(messages)).toEqual([null])
  })

  test("an audio's caption, and a caption over 1024 characters, follow as text rather than being dropped", () => {
    const audio = send({ kind: 'media', media: { type: 'audio', url: 'https://cdn.example.com/a.ogg', caption: 'Listen to this' } })
    expect(audio.map((message) => [message.type, message.body[message.type]])).toEqual([
      ['audio', { link: 'https://cdn.example.com/a.ogg' }],
      ['text', { body: 'Listen to this' }],
    ])
    const caption = words(200)
    const image = send({ kind: 'media', media: { type: 'image', url: 'https://cdn.example.com/a.png', caption } })
    expect(image.map((message) => message.type)).toEqual(['image', 'text'])
    expect(image[0]?.body.image).toEqual({ link: 'https://cdn.example.com/a.png' })
    expect(image[1]?.adaptation).toContain(`a caption of ${caption.length} characters went as its own text`)
    expect(verdicts([...audio, ...image])).toEqual([null, null, null, null])
  })

  test('a published meta flow is a flow message: by name, with a flow token, a call to action without emoji, opening its first screen', () => {
    const [message] = send({ kind: 'meta_flow', flow_id: 'published', cta: 'Sign up now 🚀 and save' })
    expect(message?.type).toBe('interactive.flow')
    expect(message?.body.interactive).toEqual({
      type: 'flow',
      body: { text: 'Sign up now 🚀 and save' },
      action: {
        name: 'flow',
        parameters: {
          flow_message_version: '3',
          flow_token: 'parley.01JD3Q3M9Z5W6X7Y8Z9A0B1C2D.published',
          flow_name: 'Sign up',
          flow_cta: 'Sign up now and save',
          mode: 'published',
          flow_action: 'navigate',
          flow_action_payload: { screen: 'WELCOME', data: { plan: 'pro' } },
        },
      },
    })
    expect(verdicts([message!])).toEqual([null])
  })

  test('a meta flow with an endpoint starts with data_exchange', () => {
    const withEndpoint = { ...context, metaFlow: () => ({ name: 'Booking', definition: { ...SIGN_UP.definition, data_api_version: '3.0' } }) }
    const parameters = (toCloudMessages({ kind: 'meta_flow', flow_id: 'x', cta: 'Book' }, withEndpoint)[0]?.body.interactive as any).action.parameters
    expect(parameters.flow_action).toBe('data_exchange')
    expect(parameters.flow_action_payload).toBeUndefined()
  })

  test('a meta flow that is not published goes as its call to action in text', () => {
    expect(send({ kind: 'meta_flow', flow_id: 'draft', cta: 'Sign up' })).toEqual([
      {
        type: 'text',
        adaptation: 'meta flow draft is not published; its call to action went as text',
        body: { messaging_product: 'whatsapp', recipient_type: 'individual', to: '447911123456', type: 'text', text: { body: 'Sign up' } },
      },
    ])
  })

  test('a visitor reply is never sent back', () => {
    expect(send({ kind: 'reply', reply_to: 'button', id: 'sales', title: 'Sales' })).toEqual([])
  })

  test('the fake provider does refuse what breaks its rules (the checks above can fail)', () => {
    const message = send({ kind: 'buttons', text: 'Pick', buttons: [{ id: 'a', title: 'A' }] })[0]!.body as any
    message.interactive.action.buttons[0].reply.title = 'A title far over twenty characters'
    expect(checkMessage(message, new Set())).toMatchObject({ code: 131009 })
    expect(checkMessage({ ...message, interactive: { ...message.interactive, action: { buttons: buttons(4).map((b) => ({ type: 'reply', reply: b })) } } }, new Set())).toMatchObject({
      details: 'interactive.action.buttons must have 1 to 3 buttons.',
    })
  })
})
