import { describe, expect, test } from 'bun:test'
import { createHmac } from 'node:crypto'
import { QUEUE_STUB } from '../../widget/src/queue-stub.ts'
import { setUpWebChat, type WebChat } from '../support/web-chat.ts'
import { agentDesk } from './support/agent-desk.ts'
import { E2E_TIMEOUT } from './support/browser.ts'
import { browserSuite } from './support/browser-suite.ts'
import { embedPage } from './support/host-pages.ts'
import { texts, WidgetPage, waitUntil } from './support/widget-page.ts'

describe('who the visitor is: identify() and setContactDetails() in Chromium', () => {
  const suite = browserSuite()
  const { opened } = suite

  /** Serves a page of shop.test embedding `chat`, with `calls` run through the queue stub before the script. */
  function pageFor(chat: WebChat, name: string, calls = ''): string {
    const path = `/${chat.chatbotId}/${name}`
    suite.host.page(path, embedPage({ serverUrl: suite.parley.url, widgetKey: chat.widgetKey, head: `<script>${QUEUE_STUB}\n${calls}</script>` }))
    return suite.host.url('shop.test', path)
  }

  async function visit(url: string): Promise<WidgetPage> {
    const visitor = await WidgetPage.open(suite.browser)
    opened.push(visitor)
    await visitor.goto(url)
    return visitor
  }

  test('an identified visitor who reloads, or comes back on another device, sees the conversation resumed', async () => {
    const chat = await setUpWebChat(suite.parley.app, { web: { greeting_message: 'Welcome!' } })
    const identified = pageFor(chat, 'ada', "ParleyWidget.identify('ada@lovelace.dev')")
    const visitor = await visit(identified)
    await visitor.connected()
    expect(visitor.sent('hello')[0]?.user_id).toBe('ada@lovelace.dev')
    await visitor.openChat()
    await visitor.shownText('Pick one')
    await visitor.page.locator('#parley-widget button.choice', { hasText: 'Sales' }).click()
    const before = await visitor.shownText('What is your email?', 'bot')
    expect(texts(before)).toEqual(['Welcome!', 'Hi! How can I help?', 'Pick one', 'Sales', 'What is your email?'])

    // Reload: the chat stays open (this tab remembers it) and shows the same history, once.
    await visitor.page.reload()
    await visitor.connected(2)
    await visitor.window.waitFor({ state: 'visible' })
    const reloaded = await visitor.shownText('What is your email?', 'bot')
    expect(texts(reloaded)).toEqual(texts(before))

    // Another device (empty storage), the same identity: the same conversation, not a new one.
    const elsewhere = await visit(identified)
    await elsewhere.connected()
    expect(elsewhere.sent('hello')[0]?.visitor_token).toBeUndefined()
    await elsewhere.openChat()
    expect(texts(await elsewhere.shownText('What is your email?', 'bot'))).toEqual(texts(before))
    expect(elsewhere.sent('start')).toEqual([])
    // ...and it carries on there: the flow's capture answers.
    await elsewhere.sendText('ada@lovelace.dev')
    await elsewhere.shownText('Thanks, we will write to ada@lovelace.dev.', 'bot')
    // The first tab, still open, follows live.
    await visitor.shownText('Thanks, we will write to ada@lovelace.dev.', 'bot')
    expect(await agentDesk(suite.parley.app, chat.chatbotId).conversations()).toHaveLength(1)

    // An anonymous visitor on a fresh device gets a conversation of their own.
    const stranger = await visit(pageFor(chat, 'anonymous'))
    await stranger.openChat()
    expect(texts(await stranger.shownText('Pick one'))).toEqual(['Welcome!', 'Hi! How can I help?', 'Pick one'])
    expect(await agentDesk(suite.parley.app, chat.chatbotId).conversations()).toHaveLength(2)
  }, E2E_TIMEOUT)

  test('setContactDetails() before and after loading, and after a reload, are merged and visible through the conversations API', async () => {
    const chat = await setUpWebChat(suite.parley.app)
    const desk = agentDesk(suite.parley.app, chat.chatbotId)
    const first = pageFor(chat, 'details', "ParleyWidget.setContactDetails({ firstName: 'Ada', plan: 'pro', profile: { nested: true } })")
    const visitor = await visit(first)
    await visitor.connected()
    expect(visitor.warnings()).toContain('ParleyWidget: setContactDetails(): "profile" is not a string, number or boolean; dropped')
    expect(visitor.sent('hello')[0]?.contact_details).toEqual({ first_name: 'Ada', plan: 'pro' })
    await visitor.openChat()
    await visitor.shownText('Pick one')
    const { id } = await desk.onlyConversation()
    const details = async () => (await desk.conversation(id)).contact.details
    // Opening started the conversation, but details wait for the visitor's first message.
    expect(await details()).toEqual({})
    await visitor.sendText('hello')
    await visitor.shownText('hello', 'visitor')
    await waitUntil(async () => JSON.stringify(await details()) === JSON.stringify({ first_name: 'Ada', plan: 'pro' }), 'the first details are stored', {
      seen: details,
    })

    // Called on the connected widget: an update and a new key.
    await visitor.page.evaluate(() => (window as any).ParleyWidget.setContactDetails({ plan: 'team', 'Seat Count': 12 }))
    await waitUntil(async () => (await details()).seat_count === 12, 'the later call is merged', { seen: details })
    expect(await details()).toEqual({ first_name: 'Ada', plan: 'team', seat_count: 12 })

    // Another page of the site sets other details: after the reconnect they are merged, the old ones kept.
    const second = pageFor(chat, 'details-2', "ParleyWidget.setContactDetails({ company: 'Analytical Engines', trial: false })")
    await visitor.goto(second)
    await visitor.connected(2)
    await waitUntil(async () => (await details()).company !== undefined, 'the details of the next page are merged', { seen: details })
    expect(await details()).toEqual({ first_name: 'Ada', plan: 'team', seat_count: 12, company: 'Analytical Engines', trial: false })
    expect(await desk.conversations()).toHaveLength(1)
  }, E2E_TIMEOUT)

  test('with identity verification, a wrong hash is refused for good: the chat says so, the console says why, and no retry follows', async () => {
    const secret = 'idsec_for_the_e2e_test_0123456789'
    const chat = await setUpWebChat(suite.parley.app, { web: { identity_secret: secret } })
    const good = createHmac('sha256', secret).update('grace@hopper.dev').digest('hex')
    const verified = await visit(pageFor(chat, 'verified', `ParleyWidget.identify('grace@hopper.dev', { hash: '${good}' })`))
    await verified.connected()
    await verified.openChat()
    await verified.shownText('Pick one')

    const forged = await visit(pageFor(chat, 'forged', `ParleyWidget.identify('grace@hopper.dev', { hash: '${'0'.repeat(64)}' })`))
    await waitUntil(() => forged.sockets.length === 1 && forged.sockets[0]!.closed, 'the server closed the socket', { seen: () => forged.sockets })
    await forged.openChat()
    await forged.page.locator('#parley-widget .notice', { hasText: 'Chat is unavailable right now.' }).waitFor()
    expect(forged.warnings().some((warning) => warning.includes('(4005'))).toBe(true)
    expect(await forged.input.isDisabled()).toBe(true)
    expect(forged.sockets).toHaveLength(1)
    expect(forged.received('welcome')).toEqual([])

    // Signed as passed, but not the canonical spelling: refused for good too, and the console
    // says so twice, before sending (the widget's own check) and with the server's reason.
    const capitals = 'Grace@Hopper.dev'
    const signed = createHmac('sha256', secret).update(capitals).digest('hex')
    const spelled = await visit(pageFor(chat, 'spelled', `ParleyWidget.identify('${capitals}', { hash: '${signed}' })`))
    await waitUntil(() => spelled.sockets.length === 1 && spelled.sockets[0]!.closed, 'the server closed the socket', { seen: () => spelled.sockets })
    await spelled.openChat()
    await spelled.page.locator('#parley-widget .notice', { hasText: 'Chat is unavailable right now.' }).waitFor()
    expect(spelled.warnings().some((warning) => warning.includes('will be refused (4010)'))).toBe(true)
    expect(spelled.warnings().some((warning) => warning.includes('(4010') && warning.includes('lower-case e-mail address exactly'))).toBe(true)
    expect(spelled.sockets).toHaveLength(1)
    expect(spelled.received('welcome')).toEqual([])
  }, E2E_TIMEOUT)
})
