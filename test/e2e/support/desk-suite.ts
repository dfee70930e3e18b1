import { beforeAll } from 'bun:test'
import type { BrowserContextOptions } from 'playwright-core'
import type { ConversationFlow } from '../../../server/flow-language/conversation-flow-schema.ts'
import { type ConsoleSuite, consoleSuite } from './console-suite.ts'
import { HANDOFF_FLOW, type Person } from './desk-bed.ts'
import { DeskPage } from './desk-page.ts'
import { embedPage } from './host-pages.ts'
import { WidgetPage } from './widget-page.ts'

export interface DeskSuite extends ConsoleSuite {
  /** An agent, activated (the admin is `ada`). */
  sam: Person
  /** A desk browser signed in as `person` (closed after the test). */
  desk(person: Person, options?: Parameters<typeof DeskPage.open>[2]): Promise<DeskPage>
  /** A widget visitor on a shop page of a fresh chatbot, handed over at their first message. */
  visitorSays(text: string, flow?: ConversationFlow, browser?: BrowserContextOptions): Promise<{ visitor: WidgetPage; chatbotId: string; conversationId: string }>
}

/** For a file of desk tests: one Chromium, the compiled binary (started with `env`), the shop pages and two people. */
export function deskSuite(env: Record<string, string> = {}): DeskSuite {
  const suite = consoleSuite(env) as DeskSuite
  beforeAll(async () => {
    suite.sam = await suite.bed.person('Sam', 'agent')
  })
  suite.desk = async (person, options = {}) => {
    const page = await DeskPage.open(suite.browser, suite.bed.url, options)
    suite.opened.push(page)
    await page.enter(person)
    return page
  }
  suite.visitorSays = async (text, flow = HANDOFF_FLOW, browser = {}) => {
    const chat = await suite.bed.webChat(flow)
    const path = `/${chat.chatbotId}`
    suite.host.page(path, embedPage({ serverUrl: suite.bed.url, widgetKey: chat.widgetKey }))
    const visitor = await WidgetPage.open(suite.browser, browser)
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
