import { describe, expect, test } from 'bun:test'
import { E2E_TIMEOUT } from './support/browser.ts'
import { ConsolePage } from './support/console-page.ts'
import { consoleSuite } from './support/console-suite.ts'
import { embedPage } from './support/host-pages.ts'
import { WidgetPage, waitUntil } from './support/widget-page.ts'

const V1 = { version: 1, start: 'hello', states: { hello: { say: [{ text: 'Version one says hi.' }], on: [{ to: 'hello' }] } } }

/** The definition the test types: a transition to a state that does not exist (line 7 of the text). */
const BROKEN = `{
  "version": 1,
  "start": "hello",
  "states": {
    "hello": {
      "say": [{ "text": "Version two: pick one" }],
      "on": [{ "equals": "yes", "to": "nowhere" }, { "to": "hello" }]
    },
    "thanks": { "say": [{ "text": "Thanks!" }], "end": true }
  }
}`

describe('the flow editor of the console in Chromium, against the compiled binary', () => {
  const suite = consoleSuite()

  test('a mistake marked at its line and on the canvas, fixed; a chat with the draft; publish; a new widget conversation on the new version; diff and restore', async () => {
    const chat = await suite.bed.webChat(V1 as never, 'Flow bot')
    const flows = await suite.bed.must('GET', `/api/dev/v1/chatbots/${chat.chatbotId}/flows`)
    const flowId = flows.items[0].id as string
    const admin = await ConsolePage.open(suite.browser, suite.bed.url, { permissions: ['clipboard-read', 'clipboard-write'] })
    suite.opened.push(admin)
    const loaded: string[] = []
    admin.page.on('request', (request) => loaded.push(new URL(request.url()).pathname))
    await admin.signIn(suite.ada, `/app/console/bots/${chat.chatbotId}/flows/${flowId}`)
    const { page } = admin
    // The editor opens on the canvas; the JSON view (CodeMirror) comes when its tab is opened.
    await page.locator('[data-builder][data-ready]').waitFor()
    expect(loaded.some((path) => path.includes('/chunks/JsonView-'))).toBe(false)
    await page.locator('[data-tab=json]').click()
    const editor = page.locator('.editor-host .cm-content')
    await editor.waitFor()
    await waitUntil(async () => (await page.locator('[data-save-state]').textContent()) === 'saved', 'the flow loaded and checked')
    // The editor came with this screen, not before.
    expect(loaded.some((path) => path.includes('/chunks/FlowEditorScreen-'))).toBe(true)

    // Type the broken definition: the validate endpoint's error is marked on line 7, where "nowhere" is.
    await editor.click()
    await page.keyboard.press('Control+a')
    await page.keyboard.press('Delete')
    // Pasted, as a person would bring a definition in (typed, the editor would close brackets for them).
    await page.evaluate((text) => navigator.clipboard.writeText(text), BROKEN)
    await page.keyboard.press('Control+v')
    await page.locator('[data-issue=unknown_state]').waitFor()
    await waitUntil(async () => (await page.locator('.cm-lintRange-error').count()) > 0, 'the error marked in the text')
    // The canvas marks it too, on the state whose way leads nowhere; "thanks" is dimmed, nobody reaches it.
    await page.locator('[data-tab=canvas]').click()
    await page.locator('[data-state=hello][data-kind=question] [data-node-errors]').waitFor()
    await page.locator('[data-state=thanks].unreachable').waitFor()
    await page.locator('[data-tab=json]').click()
    const markedLine = await page.locator('.cm-lintRange-error').first().evaluate((mark) => {
      const line = mark.closest('.cm-line') as HTMLElement
      return [...(line.parentElement as HTMLElement).querySelectorAll('.cm-line')].indexOf(line) + 1
    })
    expect(markedLine).toBe(7)
    expect(await page.getByRole('button', { name: 'Publish' }).isDisabled()).toBe(true)

    // Fix it: the button leads to "thanks".
    await page.locator('[data-issue=unknown_state]').click()
    await page.keyboard.insertText('"thanks"')
    await waitUntil(async () => (await page.locator('[data-issue=unknown_state]').count()) === 0 && (await page.locator('[data-save-state]').textContent()) === 'saved', 'the error gone')
    // The canvas drew the text's change: "thanks" is reached now.
    await page.locator('[data-tab=canvas]').click()
    await waitUntil(async () => (await page.locator('[data-state=thanks]').getAttribute('class'))?.includes('unreachable') === false, 'thanks reachable on the canvas')

    // A chat with the draft, through the real engine; nothing of it is stored.
    await page.locator('[data-side=try]').click()
    await page.getByRole('button', { name: 'Start a test chat' }).click()
    const log = page.locator('[data-test-chat]')
    await waitUntil(async () => ((await log.textContent()) ?? '').includes('Version two: pick one'), 'the draft speaks')
    await page.locator('input[name=test_text]').fill('yes')
    await page.locator('.test-chat').getByRole('button', { name: 'Send' }).click()
    await waitUntil(async () => ((await log.textContent()) ?? '').includes('Thanks!'), 'the draft answers the button')
    expect((await suite.bed.must('GET', `/api/dev/v1/chatbots/${chat.chatbotId}/conversations`)).items).toEqual([])

    // Publish: a new widget conversation runs version 2.
    await page.getByRole('button', { name: 'Publish' }).click()
    await page.getByRole('status').filter({ hasText: 'version 2' }).waitFor()
    const path = `/${chat.chatbotId}`
    suite.host.page(path, embedPage({ serverUrl: suite.bed.url, widgetKey: chat.widgetKey }))
    const visitor = await WidgetPage.open(suite.browser)
    suite.opened.push(visitor)
    await visitor.goto(suite.host.url('shop.test', path))
    await visitor.openChat()
    await visitor.shownText('Version two: pick one')

    // Compare version 1 with the working copy, then restore version 1 as the working copy.
    await page.locator('select[name=diff_left]').selectOption('1')
    await page.getByRole('button', { name: 'Show the differences' }).click()
    await page.locator('[data-diff] .cm-mergeView').waitFor()
    expect(await page.locator('[data-diff] .cm-mergeView').textContent()).toContain('Version one says hi.')
    expect(await page.locator('[data-diff] .cm-changedLine').count()).toBeGreaterThan(0)
    await page.locator('[data-version="1"]').getByRole('button', { name: 'Restore as working copy' }).click()
    await waitUntil(async () => {
      const stored = await suite.bed.must('GET', `/api/dev/v1/chatbots/${chat.chatbotId}/flows/${flowId}`)
      return stored.flow.states.hello.say[0].text === 'Version one says hi.' && stored.has_unpublished_changes === true && stored.published_version === 2
    }, 'version 1 restored as the working copy, version 2 still live')
    // The editor and the diff live in shadow roots, styled by adopted stylesheets: nothing the CSP refuses.
    expect(admin.errors()).toEqual([])
  }, E2E_TIMEOUT)
})
