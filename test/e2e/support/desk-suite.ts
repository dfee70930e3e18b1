import { afterAll, afterEach, beforeAll } from 'bun:test'
import type { Browser } from 'playwright-core'
import type { ConversationFlow } from '../../../server/flows/conversation-flow-schema.ts'
import { launchBrowser } from './browser.ts'
import { type DeskBed, deskBed, HANDOFF_FLOW, type Person } from './desk-bed.ts'
import { DeskPage } from './desk-page.ts'
import { embedPage, type HostPages, startHostPages } from './host-pages.ts'
import { WidgetPage } from './widget-page.ts'

export interface DeskSuite {
  browser: Browser
  bed: DeskBed
  host: HostPages
  /** An admin and an agent, activated. */
  ada: Person
  sam: Person
  /** A desk browser signed in as `person` (closed after the test). */
  desk(person: Person, options?: Parameters<typeof DeskPage.open>[2]): Promise<DeskPage>
  /** A widget visitor on a shop page of a fresh chatbot, handed over at their first message. */
  visitorSays(text: string, flow?: ConversationFlow): Promise<{ visitor: WidgetPage; chatbotId: string; conversationId: string }>
  /** Pages opened by a test; closed after it. */
  opened: { close(): Promise<void> }[]
}

/** For a file of desk tests: one Chromium, the compiled binary, the shop pages and two people. */
export function deskSuite(): DeskSuite {
  const suite = { opened: [] } as unknown as DeskSuite
  beforeAll(async () => {
    ;[suite.browser, suite.bed] = await Promise.all([launchBrowser(), deskBed()])
    suite.host = startHostPages()
    suite.ada = await suite.bed.person('Ada', 'admin')
    suite.sam = await suite.bed.person('Sam', 'agent')
  }, 60_000)
  afterEach(async () => {
    for (const page of suite.opened.splice(0)) await page.close()
  })
  afterAll(async () => {
    await suite.browser?.close()
    await suite.host?.stop()
    await suite.bed?.close()
  })
  suite.desk = async (person, options = {}) => {
    const page = await DeskPage.open(suite.browser, suite.bed.url, options)
    suite.opened.push(page)
    await page.signIn(person)
    return page
  }
  suite.visitorSays = async (text, flow = HANDOFF_FLOW) => {
    const chat = await suite.bed.webChat(flow)
    const path = `/${chat.chatbotId}`
    suite.host.page(path, embedPage({ serverUrl: suite.bed.url, widgetKey: chat.widgetKey }))
    const visitor = await WidgetPage.open(suite.browser)
    suite.opened.push(visitor)
    await visitor.goto(suite.host.url('shop.test', path))
    await visitor.openChat()
    await visitor.shownText('Hello! What can we do for you?')
    await visitor.sendText(text)
    await visitor.shownText('A person will answer you here shortly.')
    const list = await suite.bed.must('GET', `/api/dev/v1/chatbots/${chat.chatbotId}/conversations`)
    return { visitor, chatbotId: chat.chatbotId, conversationId: list.items[0].id }
  }
  return suite
}
