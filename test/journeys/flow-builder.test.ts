import { describe, expect, test } from 'bun:test'
import { mkdirSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Locator, Page } from 'playwright-core'
import { E2E_TIMEOUT } from '../e2e/support/browser.ts'
import { consoleSuite } from '../e2e/support/console-suite.ts'
import { embedPage } from '../e2e/support/host-pages.ts'
import { WidgetPage, waitUntil } from '../e2e/support/widget-page.ts'
import { HANDOFF_FLOW } from '../e2e/support/desk-bed.ts'
import { validFlow } from '../flows/validate/conversation-fixture.ts'
import { SALES_FLOW } from '../support/web-chat.ts'
import { TEMPLATES } from '../../app/src/console/flows/builder/model/starters.ts'
import { expectAccessible } from './support/accessible.ts'

/**
 * The flow builder's day, in Chromium against the compiled binary: an admin builds the lead
 * capture flow of a new chatbot by clicking (no JSON typed), sees a mistake marked on its
 * state and fixes it by connecting, tries the draft in the test chat while the canvas follows,
 * publishes, a visitor on another site chats with it, and the canvas then shows what that
 * conversation did. Every check is of what is on screen, in view.
 */

const SHOTS = process.env.PARLEY_SCREENSHOTS ?? '/tmp/parley-builder-shots'
mkdirSync(SHOTS, { recursive: true })

/** Whether the element is drawn within the page's viewport (and, for a card, within the canvas). */
async function inView(page: Page, locator: Locator, within?: Locator): Promise<boolean> {
  const box = await locator.boundingBox()
  const viewport = page.viewportSize()
  if (!box || !viewport) return false
  const frame = within ? await within.boundingBox() : { x: 0, y: 0, width: viewport.width, height: viewport.height }
  if (!frame) return false
  const left = Math.max(frame.x, 0)
  const top = Math.max(frame.y, 0)
  const right = Math.min(frame.x + frame.width, viewport.width)
  const bottom = Math.min(frame.y + frame.height, viewport.height)
  return box.x >= left - 1 && box.y >= top - 1 && box.x + box.width <= right + 1 && box.y + box.height <= bottom + 1
}

async function expectInView(page: Page, locator: Locator, what: string, within?: Locator) {
  await locator.first().waitFor({ state: 'visible' })
  await waitUntil(async () => inView(page, locator.first(), within), `${what} is in view`)
}

/** The states whose cards the card of `name` overlaps on screen. */
async function cardsCovered(page: Page, name: string): Promise<string[]> {
  return await page.evaluate((name) => {
    const cards = [...document.querySelectorAll<HTMLElement>('.builder-canvas [data-state]')]
    const mine = cards.find((card) => card.dataset.state === name)?.getBoundingClientRect()
    if (!mine) return [`${name} is not drawn`]
    return cards
      .filter((card) => card.dataset.state !== name)
      .filter((card) => {
        const box = card.getBoundingClientRect()
        return mine.left < box.right && box.left < mine.right && mine.top < box.bottom && box.top < mine.bottom
      })
      .map((card) => card.dataset.state ?? '')
  }, name)
}

/** Drags from a port's handle onto a state's card, as a person connects two states. */
async function connect(page: Page, from: string, port: string, to: string) {
  const handle = page.locator(`[data-state="${from}"] [data-handle="${port}"]`)
  const target = page.locator(`[data-state="${to}"] .node-head`)
  const a = await handle.boundingBox()
  const b = await target.boundingBox()
  if (!a || !b) throw new Error(`cannot see ${from}:${port} or ${to}`)
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2)
  await page.mouse.down()
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 4 })
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 4 })
  await page.mouse.up()
}

describe('the flow builder, from a new chatbot to a visitor on another site', () => {
  const suite = consoleSuite()

  test('build the lead capture flow by clicking, fix what the canvas marks, try it, publish, chat with it in the widget, see what it did', async () => {
    const admin = await suite.consoleOf(suite.ada, '/app/console')
    const { page } = admin
    try {
      await journey(admin)
    } catch (failure) {
      await page.screenshot({ path: `${SHOTS}/failure.png` })
      throw failure
    }
  }, E2E_TIMEOUT * 2)

  async function journey(admin: Awaited<ReturnType<typeof suite.consoleOf>>) {
    const { page } = admin
    await page.setViewportSize({ width: 1440, height: 1000 })
    const loaded: string[] = []
    page.on('request', (request) => loaded.push(new URL(request.url()).pathname))

    // A new chatbot, made in the console.
    await page.locator('input[name=name]').fill('Leads')
    await page.getByRole('button', { name: 'Create' }).click()
    await page.getByRole('link', { name: 'Leads' }).click()
    const chatbotId = new URL(page.url()).pathname.split('/').at(-1) as string
    const web = await suite.bed.must('POST', `/api/dev/v1/chatbots/${chatbotId}/integrations/web`, { name: 'Site' })

    // A new flow opens on the canvas, empty, with templates offered; the builder came only now.
    expect(loaded.some((path) => path.includes('/chunks/FlowBuilder-'))).toBe(false)
    await page.goto(`${suite.bed.url}/app/console/bots/${chatbotId}/flows`)
    await page.locator('input[name=flow_name]').fill('Lead capture')
    await page.getByRole('button', { name: 'Create' }).click()
    const canvas = page.locator('[data-canvas]')
    await expectInView(page, page.locator('[data-templates]'), 'the templates of an empty flow')
    expect(loaded.some((path) => path.includes('/chunks/FlowBuilder-'))).toBe(true)
    expect(loaded.some((path) => path.includes('/chunks/JsonView-'))).toBe(false)
    const flowId = new URL(page.url()).pathname.split('/').at(-1) as string

    // Ask for a name: a capture state from the palette, renamed, into a new variable.
    await page.locator('[data-add=capture]').click()
    const panel = page.locator('.builder-panel')
    await panel.locator('input[name=state_name]').fill('ask_name')
    await panel.locator('input[name=state_name]').press('Enter')
    await page.locator('[data-state=ask_name]').waitFor()
    await panel.locator('textarea[aria-label=Text]').fill('Hi! What is your name?')
    await panel.getByLabel('Expect').selectOption('text')
    await panel.getByRole('button', { name: 'New variable' }).click()
    await panel.getByLabel("New variable's name").fill('name')
    await panel.getByRole('button', { name: 'Declare' }).click()
    await waitUntil(async () => (await panel.getByLabel('Store in the variable').inputValue()) === 'name', 'the capture stores into "name"')

    // Ask for the e-mail, beside it; its text uses {{name}}, picked from what {{ offers.
    await page.locator('[data-add=capture]').click()
    await panel.locator('input[name=state_name]').fill('ask_email')
    await panel.locator('input[name=state_name]').press('Enter')
    await page.locator('[data-state=ask_email]').waitFor()
    const text = panel.locator('textarea[aria-label=Text]')
    await text.fill('')
    await text.pressSequentially('Thanks {{na')
    await expectInView(page, page.locator('[data-template-offer]'), 'the variables offered after {{')
    await page.locator('[data-template-offer] li', { hasText: '{{name}}' }).click()
    await text.pressSequentially('. Your e-mail address?')
    expect(await text.inputValue()).toBe('Thanks {{name}}. Your e-mail address?')

    // Ask for a phone number, checked.
    await page.locator('[data-add=capture]').click()
    await panel.locator('input[name=state_name]').fill('ask_phone')
    await panel.locator('input[name=state_name]').press('Enter')
    await page.locator('[data-state=ask_phone]').waitFor()
    await panel.locator('textarea[aria-label=Text]').fill('And a phone number we can call?')
    await panel.getByLabel('Expect').selectOption('phone')
    await panel.getByRole('button', { name: 'New variable' }).click()
    await panel.getByLabel("New variable's name").fill('phone')
    await panel.getByRole('button', { name: 'Declare' }).click()

    // And the end.
    await page.locator('[data-add=end]').click()
    await panel.locator('textarea[aria-label=Text]').fill('Thanks {{name}}! We will be in touch at {{email}}.')
    await page.getByRole('button', { name: 'Fit' }).click()

    // Connect the chain by dragging from each "then" port onto the next state.
    await connect(page, 'ask_name', 'next', 'ask_email')
    await connect(page, 'ask_email', 'next', 'ask_phone')
    await waitUntil(async () => (await page.locator('[data-edge="ask_email|next"]').count()) === 1, 'two edges drawn')

    // The phone capture goes nowhere yet: the validator's error is on its card, publishing is refused with the reason.
    await waitUntil(async () => (await page.locator('[data-save-state]').textContent()) === 'saved', 'saved and checked')
    const phone = page.locator('[data-state=ask_phone]')
    await expectInView(page, phone.locator('[data-node-errors]'), 'the error count on the phone capture', canvas)
    expect(await phone.locator('.node-issue').textContent()).toContain('next is required with capture')
    expect(await page.getByRole('button', { name: 'Publish' }).isDisabled()).toBe(true)
    await expectInView(page, page.locator('[data-publish-blocked]'), 'why publishing is refused')
    expect(await page.locator('[data-publish-blocked]').textContent()).toBe('Fix 1 error to publish.')
    expect(await page.locator('.flow-editor h2').first().textContent()).toBe('1 error, 1 warning')
    // Opened, the state shows the same finding at the field it is about.
    await phone.locator('.node-head').click()
    await expectInView(page, panel.locator('[data-field="/states/ask_phone/next"] [data-field-issue]'), 'the error at the "Go to" field')
    await page.screenshot({ path: `${SHOTS}/builder-error-on-node.png` })
    await expectAccessible(page, 'the flow builder with an error on a state')

    // Fixed on the canvas: the phone capture leads to the end.
    await connect(page, 'ask_phone', 'next', 'bye')
    await waitUntil(async () => (await phone.locator('[data-node-errors]').count()) === 0 && (await page.locator('[data-save-state]').textContent()) === 'saved', 'the error gone')
    await waitUntil(async () => !(await page.getByRole('button', { name: 'Publish' }).isDisabled()), 'publishing allowed')

    // Try the draft beside the canvas: the canvas marks the state the test chat is in.
    await page.locator('[data-side=try]').click()
    await page.getByRole('button', { name: 'Start a test chat' }).click()
    const log = page.locator('[data-test-chat]')
    await waitUntil(async () => ((await log.textContent()) ?? '').includes('What is your name?'), 'the draft asks for a name')
    await waitUntil(async () => (await page.locator('[data-state=ask_name].current').count()) === 1, 'the canvas marks ask_name')
    const say = async (words: string, answer: string) => {
      await page.locator('input[name=test_text]').fill(words)
      await page.locator('.test-chat').getByRole('button', { name: 'Send' }).click()
      await waitUntil(async () => ((await log.textContent()) ?? '').includes(answer), `the draft answers "${words}"`)
    }
    await say('Ada', 'Thanks Ada. Your e-mail address?')
    await waitUntil(async () => (await page.locator('[data-state=ask_email].current').count()) === 1, 'the canvas follows to ask_email')
    await say('not an address', 'does not look like an e-mail address')
    await say('ada@lovelace.dev', 'And a phone number we can call?')
    await say('+44 20 7946 0958', 'We will be in touch at ada@lovelace.dev')
    await expectInView(page, log.locator('div').last(), "the test chat's newest line")
    await page.screenshot({ path: `${SHOTS}/builder-test-chat.png` })
    await expectAccessible(page, "the flow builder's test chat")
    const stored = await suite.bed.must('GET', `/api/dev/v1/chatbots/${chatbotId}/flows/${flowId}`)
    expect(Object.keys(stored.flow.states)).toEqual(['ask_name', 'ask_email', 'ask_phone', 'bye'])
    expect(stored.flow.variables).toEqual({ email: { type: 'string' }, name: { type: 'string' }, phone: { type: 'string' } })
    expect(Object.keys(stored.flow.layout.states).sort()).toEqual(['ask_email', 'ask_name', 'ask_phone', 'bye'])

    // Publish; a visitor on another site chats with it in the widget.
    await page.getByRole('button', { name: 'Publish' }).click()
    await page.getByRole('status').filter({ hasText: 'version 1' }).waitFor()
    suite.host.page(`/${chatbotId}`, embedPage({ serverUrl: suite.bed.url, widgetKey: web.config.widget_key }))
    const visitor = await WidgetPage.open(suite.browser)
    suite.opened.push(visitor)
    await visitor.goto(suite.host.url('shop.test', `/${chatbotId}`))
    await visitor.openChat()
    await visitor.shownText('Hi! What is your name?')
    await visitor.sendText('Grace')
    await visitor.shownText('Thanks Grace. Your e-mail address?')
    await visitor.sendText('grace@hopper.dev')
    await visitor.shownText('And a phone number we can call?')
    await visitor.page.screenshot({ path: `${SHOTS}/builder-widget.png` })

    // What that conversation did, on the canvas: in at the start, stopped at the phone question.
    await page.getByLabel('Show what conversations did').selectOption('1')
    await expectInView(page, page.locator('[data-state=ask_phone] [data-insight]'), 'the counts on the phone capture', canvas)
    await waitUntil(async () => ((await page.locator('[data-state=ask_phone] [data-insight]').textContent()) ?? '').startsWith('1 in · 1 stopped'), 'one stopped at the phone question')
    expect(await page.locator('[data-state=ask_name] [data-insight]').textContent()).toStartWith('1 in · 0 stopped')
    expect(await page.locator('[data-insights-summary]').textContent()).toBe('version 1: 1 conversation started')
    await page.screenshot({ path: `${SHOTS}/builder-insights.png` })
    await expectAccessible(page, "the flow builder's insights")
    expect(admin.errors()).toEqual([])
  }
})

describe('the flow builder on a tablet, by touch and keys', () => {
  const suite = consoleSuite()

  test('a template tapped; agent and handoff marked; rename followed; copy, paste, undo, redo, arrows; Delete shows what leads there; dead end flagged; the JSON view follows', async () => {
    const chatbotId = (await suite.bed.must('POST', '/api/dev/v1/chatbots', { name: 'Tablet' })).id as string
    const made = await suite.bed.must('POST', `/api/dev/v1/chatbots/${chatbotId}/flows`, { name: 'Account help', type: 'conversation', flow: {} })
    const admin = await suite.consoleOf(suite.ada, `/app/console/bots/${chatbotId}/flows/${made.id}`, { viewport: { width: 1024, height: 768 }, hasTouch: true })
    const { page } = admin
    const stored = async () => (await suite.bed.must('GET', `/api/dev/v1/chatbots/${chatbotId}/flows/${made.id}`)).flow
    const saved = () => waitUntil(async () => (await page.locator('[data-save-state]').textContent()) === 'saved', 'saved')
    try {
      // The four templates of an empty flow, in view on a tablet; one tapped.
      const canvas = page.locator('[data-canvas]')
      await expectInView(page, page.locator('[data-templates]'), 'the templates')
      expect(await page.locator('[data-template]').evaluateAll((cards) => cards.map((card) => (card as HTMLElement).dataset.template))).toEqual(['faq', 'lead', 'hours', 'agent'])
      await page.locator('[data-template=agent]').tap()
      await page.locator('[data-builder][data-ready]').waitFor()
      await saved()

      // The LLM agent and the handoff are marked as such; the agent's exits are labelled edges.
      await canvas.scrollIntoViewIfNeeded()
      const agent = page.locator('[data-state=assistant]')
      await expectInView(page, agent, 'the agent state', canvas)
      expect(await agent.getAttribute('data-kind')).toBe('agent')
      expect(await agent.locator('.node-kind').textContent()).toBe('LLM agent')
      expect(await page.locator('[data-state=human] .node-kind').textContent()).toBe('Handoff')
      expect(await agent.locator('[data-port="agent/exits/0"]').textContent()).toContain('the visitor wants a person→ human')
      await page.locator('[data-edge="assistant|agent/exits/0"]').waitFor()

      // Tapped, the handoff opens in the panel; renamed there, every way to it follows.
      await page.locator('[data-state=human] .node-head').tap()
      const panel = page.locator('.builder-panel')
      await expectInView(page, panel.locator('[data-panel-state=human] input[name=state_name]'), "the handoff's name in its form")
      await panel.locator('input[name=state_name]').fill('person')
      await panel.locator('input[name=state_name]').press('Enter')
      await page.locator('[data-state=person]').waitFor()
      expect(await agent.locator('[data-port="agent/exits/0"] .port-to').textContent()).toBe('→ person')
      expect(await agent.locator('[data-port="agent/on_error"] .port-to').textContent()).toBe('→ person')
      await saved()
      expect((await stored()).states.assistant.agent.exits[0].to).toBe('person')

      // Keys on the selected card: copy and paste, undo, redo, an arrow moves it.
      await page.locator('[data-state=person]').focus()
      await page.keyboard.press('Control+c')
      await page.keyboard.press('Control+v')
      await page.locator('[data-state=person_copy]').waitFor()
      await page.keyboard.press('Control+z')
      await waitUntil(async () => (await page.locator('[data-state=person_copy]').count()) === 0, 'the paste undone')
      await page.keyboard.press('Control+Shift+z')
      await page.locator('[data-state=person_copy]').waitFor()
      await saved()
      const before = (await stored()).layout.states.person_copy
      await page.locator('[data-state=person_copy] .node-head').tap()
      await page.locator('[data-state=person_copy]').focus()
      await page.keyboard.press('ArrowRight')
      await saved()
      await waitUntil(async () => (await stored()).layout.states.person_copy.x === before.x + 10, 'moved 10 to the right')

      // Delete on the handoff: what leads to it is shown first; Enter confirms.
      await page.locator('[data-state=person]').click()
      await page.locator('[data-state=person]').focus()
      await page.keyboard.press('Delete')
      const confirm = page.locator('[data-delete-confirm]')
      await expectInView(page, confirm, 'the question before deleting')
      expect(await confirm.locator('[data-pointing] li').allTextContents()).toEqual(['assistant: the visitor wants a person → person', 'assistant: on error → person'])
      await page.screenshot({ path: `${SHOTS}/builder-tablet-delete.png` })
      await page.keyboard.press('Enter')
      await waitUntil(async () => (await page.locator('[data-state=person]').count()) === 0, 'the handoff deleted')
      expect((await agent.locator('[data-port]').allTextContents()).join(' ')).not.toContain('person')

      // A message from the palette goes nowhere: flagged as a dead end, with the validator's reason.
      await page.locator('[data-add=message]').tap()
      const message = page.locator('[data-state=message]')
      await message.waitFor()
      // It lands beside the selected state, below any card that would be in the way, never over one.
      expect(await cardsCovered(page, 'message')).toEqual([])
      await saved()
      await waitUntil(async () => ((await message.getAttribute('class')) ?? '').includes('dead-end'), 'the new message flagged as a dead end')
      expect(await message.locator('.node-issue').textContent()).toContain('has no way out')

      // The JSON view shows what the canvas did.
      await page.locator('[data-tab=json]').tap()
      const text = page.locator('.editor-host .cm-content')
      await waitUntil(async () => ((await text.textContent()) ?? '').includes('"person_copy"'), 'the JSON view has the copy')
      expect(await text.textContent()).not.toContain('"person"')

      // In Spanish (chosen in the top bar): the palette, the cards, their ways out, the panel's
      // form and what the palette adds speak it, with no English left in the agent's form.
      await page.getByRole('combobox', { name: 'Language' }).selectOption('es')
      await page.locator('[data-tab=canvas]').tap()
      await expectInView(page, page.locator('[data-add=message]', { hasText: 'Mensaje' }), 'the palette in Spanish')
      await waitUntil(async () => (await agent.locator('.node-kind').textContent()) === 'Agente LLM', 'the agent card in Spanish')
      expect(await agent.locator('[data-port="agent/on_error"]').textContent()).toContain('si falla')
      await page.locator('[data-state=assistant] .node-head').tap()
      const form = panel.locator('[data-panel-state=assistant]')
      await expectInView(page, form.locator('input[name=state_name]'), "the agent's form in Spanish")
      const said = (await form.textContent()) ?? ''
      for (const words of ['Dice', 'Después', 'Instrucciones', 'Herramientas (servidores MCP de este chatbot)', 'Salidas', '+ Salida', 'Cuando el modelo falla, ir a', 'Modelo y límites']) expect(said).toContain(words)
      for (const words of ['Says', 'Then', 'Instructions', 'Exits', 'When the model fails', 'Model and limits']) expect(said).not.toContain(words)
      expect(await form.locator('[data-field$="/(way out)"] select option:checked').textContent()).toBe('Dejar que responda un agente LLM')
      await page.screenshot({ path: `${SHOTS}/builder-in-spanish.png` })
      await expectAccessible(page, 'the flow builder in Spanish')
      await page.locator('[data-add=message]').tap()
      await waitUntil(async () => ((await page.locator('[data-state=message_2]').textContent()) ?? '').includes('¡Hola!'), "the palette's message says ¡Hola!")
      expect(admin.errors()).toEqual([])
    } catch (failure) {
      await page.screenshot({ path: `${SHOTS}/tablet-failure.png` })
      throw failure
    }
  }, E2E_TIMEOUT * 2)
})

describe('the builder keeps every flow as it was', () => {
  const suite = consoleSuite()

  test('each example of docs/ and each flow of the test data, opened, every state looked at, then one moved: stored as before, plus that place', async () => {
    const flows = roundTripFlows()
    expect(flows.length).toBeGreaterThanOrEqual(12)
    const chatbotId = (await suite.bed.must('POST', '/api/dev/v1/chatbots', { name: 'Round trips' })).id as string
    const admin = await suite.consoleOf(suite.ada, '/app/console')
    const { page } = admin
    await page.setViewportSize({ width: 1440, height: 1000 })
    for (const { name, flow } of flows) {
      const made = await suite.bed.must('POST', `/api/dev/v1/chatbots/${chatbotId}/flows`, { name, type: 'conversation', flow })
      await page.goto(`${suite.bed.url}/app/console/bots/${chatbotId}/flows/${made.id}`)
      const names = Object.keys(flow.states as object)
      await waitUntil(async () => (await page.locator('[data-state]').count()) === names.length, `${name}: every state drawn`)
      await page.locator('[data-builder][data-ready]').waitFor()
      // Each state opened in the side panel: its forms read it, and write nothing.
      for (const state of names) {
        await page.locator(`[data-state="${state}"] .node-head`).click({ force: true })
        await page.locator(`[data-panel-state="${state}"]`).waitFor({ timeout: 5000 }).catch(async (failure) => {
          await page.screenshot({ path: `${SHOTS}/round-trip-failure.png` })
          throw failure
        })
      }
      const untouched = await suite.bed.must('GET', `/api/dev/v1/chatbots/${chatbotId}/flows/${made.id}`)
      expect({ name, updated_at: untouched.updated_at, flow: JSON.stringify(untouched.flow) }).toEqual({ name, updated_at: null, flow: JSON.stringify(flow) })
      // Saved by a move: the definition is the same, in the same order, with that state's place added.
      const head = page.locator(`[data-state="${names[0]}"] .node-head`)
      const box = await head.boundingBox()
      if (!box) throw new Error(`${name}: the first state is not drawn`)
      await page.mouse.move(box.x + 20, box.y + 8)
      await page.mouse.down()
      await page.mouse.move(box.x + 60, box.y + 48, { steps: 5 })
      await page.mouse.up()
      await waitUntil(async () => (await suite.bed.must('GET', `/api/dev/v1/chatbots/${chatbotId}/flows/${made.id}`)).updated_at !== null && (await page.locator('[data-save-state]').textContent()) === 'saved', `${name}: saved`)
      const saved = (await suite.bed.must('GET', `/api/dev/v1/chatbots/${chatbotId}/flows/${made.id}`)).flow
      const { layout, ...rest } = saved
      const { layout: before, ...original } = flow as { layout?: { states: Record<string, unknown> } }
      expect({ name, flow: JSON.stringify(rest) }).toEqual({ name, flow: JSON.stringify(original) })
      expect(Object.keys(layout.states).sort()).toEqual([...new Set([...Object.keys(before?.states ?? {}), names[0] as string])].sort())
    }
    expect(admin.errors()).toEqual([])
  }, E2E_TIMEOUT * 3)
})

/** The conversation flows of docs/ (its ```json examples) and of the test data. */
function roundTripFlows(): { name: string; flow: Record<string, unknown> }[] {
  const found: { name: string; flow: Record<string, unknown> }[] = []
  const docs = join(import.meta.dir, '../../docs')
  for (const file of readdirSync(docs).filter((name) => name.endsWith('.md'))) {
    for (const [index, block] of [...readFileSync(join(docs, file), 'utf8').matchAll(/^```json\n([\s\S]*?)^```$/gm)].entries()) {
      try {
        const flow = JSON.parse(block[1] as string)
        if (flow?.version === 1 && typeof flow.states === 'object') found.push({ name: `docs/${file} #${index + 1}`, flow })
      } catch {}
    }
  }
  const fixtures = join(import.meta.dir, '../engine/fixtures')
  for (const file of readdirSync(fixtures).filter((name) => name.endsWith('.json'))) found.push({ name: `test/engine/fixtures/${file}`, flow: JSON.parse(readFileSync(join(fixtures, file), 'utf8')) })
  found.push({ name: 'the validator reference flow', flow: validFlow() })
  found.push({ name: 'SALES_FLOW', flow: SALES_FLOW as never })
  found.push({ name: 'HANDOFF_FLOW', flow: HANDOFF_FLOW as never })
  for (const template of TEMPLATES) found.push({ name: `template ${template.id}`, flow: template.flow({ integrationId: '01JD3Q4A7B8C9D0E1F2G3H4J5K' }) })
  // Keys the builder does not know, wherever they may be: kept where they are.
  found.push({ name: 'unknown keys', flow: { comment: 'top', version: 1, start: 'a', states: { a: { colour: 'red', say: [{ text: 'Hi', x_note: 1 }], on: [{ to: 'a', weight: 2 }] } }, layout: { states: { a: { x: 5, y: 6 }, gone: { x: 1, y: 1 } } } } })
  return found
}
