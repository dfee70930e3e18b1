import { beforeAll, describe, expect, test } from 'bun:test'
import { E2E_TIMEOUT } from './support/browser.ts'
import { type ConsoleSuite, consoleSuite } from './support/console-suite.ts'
import type { Person } from './support/desk-bed.ts'
import { waitUntil } from './support/widget-page.ts'

describe('the console at /app/console in Chromium, against the compiled binary', () => {
  const suite = consoleSuite()
  let sam: Person
  beforeAll(async () => {
    sam = await suite.bed.person('Sam', 'agent')
  })
  const consoleOf: ConsoleSuite['consoleOf'] = (person, path, options) => suite.consoleOf(person, path, options)

  test('chatbots: create, rename, and delete after a confirmation that says what is lost', async () => {
    const admin = await consoleOf(suite.ada)
    const { page } = admin
    await page.locator('input[name=name]').fill('Console bot')
    await page.getByRole('button', { name: 'Create' }).click()
    const row = page.locator('table.chatbots tr', { hasText: 'Console bot' })
    await row.waitFor()
    const id = (await row.getAttribute('data-chatbot')) as string
    expect((await suite.bed.must('GET', `/api/dev/v1/chatbots/${id}`)).name).toBe('Console bot')

    const byId = page.locator(`tr[data-chatbot="${id}"]`)
    await byId.getByRole('button', { name: 'Rename' }).click()
    await byId.getByLabel('New name').fill('Renamed bot')
    await byId.getByRole('button', { name: 'Save' }).click()
    await page.locator('table.chatbots a', { hasText: 'Renamed bot' }).waitFor()
    expect((await suite.bed.must('GET', `/api/dev/v1/chatbots/${id}`)).name).toBe('Renamed bot')

    await page.locator(`tr[data-chatbot="${id}"]`).getByRole('button', { name: 'Delete' }).click()
    const dialog = page.getByRole('dialog')
    expect(await dialog.textContent()).toContain('every conversation, contact and message')
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    expect((await suite.bed.call('GET', `/api/dev/v1/chatbots/${id}`)).status).toBe(200)
    await page.locator(`tr[data-chatbot="${id}"]`).getByRole('button', { name: 'Delete' }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Delete for good' }).click()
    await page.locator(`tr[data-chatbot="${id}"]`).waitFor({ state: 'detached' })
    expect((await suite.bed.call('GET', `/api/dev/v1/chatbots/${id}`)).status).toBe(404)
    expect(admin.errors()).toEqual([])
  }, E2E_TIMEOUT)

  test("flows: one deleted after a confirmation, the chatbot's other flow kept", async () => {
    const chat = await suite.bed.webChat(undefined, 'Two flows bot')
    const spare = await suite.bed.must('POST', `/api/dev/v1/chatbots/${chat.chatbotId}/flows`, {
      name: 'Spare',
      type: 'conversation',
      flow: { version: 1, start: 'hi', states: { hi: { say: [{ text: 'Hi.' }], end: true } } },
    })
    const admin = await consoleOf(suite.ada, `/app/console/bots/${chat.chatbotId}/flows`)
    const { page } = admin
    const row = page.locator(`tr[data-flow="${spare.id}"]`)
    await row.getByRole('button', { name: 'Delete' }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click()
    await page.getByRole('dialog').waitFor({ state: 'detached' })
    expect((await suite.bed.call('GET', `/api/dev/v1/chatbots/${chat.chatbotId}/flows/${spare.id}`)).status).toBe(200)
    await row.getByRole('button', { name: 'Delete' }).click()
    expect(await page.getByRole('dialog').textContent()).toContain('Delete Spare?')
    await page.getByRole('dialog').getByRole('button', { name: 'Delete for good' }).click()
    await row.waitFor({ state: 'detached' })
    expect(await page.getByRole('dialog').count()).toBe(0)
    expect((await suite.bed.call('GET', `/api/dev/v1/chatbots/${chat.chatbotId}/flows/${spare.id}`)).status).toBe(404)
    expect((await suite.bed.must('GET', `/api/dev/v1/chatbots/${chat.chatbotId}/flows`)).items.map((flow: { id: string }) => flow.id)).not.toContain(spare.id)
    expect(await page.locator('tr[data-flow]').count()).toBe(1)
    expect(admin.errors()).toEqual([])
  }, E2E_TIMEOUT)

  test("the overview charts the chatbot's conversations per day, its open handoffs and its published flow's version", async () => {
    const chat = await suite.bed.webChat()
    const admin = await consoleOf(suite.ada, `/app/console/bots/${chat.chatbotId}`)
    const { page } = admin
    await page.locator('[data-open-handoffs]').waitFor()
    await waitUntil(async () => (await page.locator('.chart rect').count()) === 30, 'thirty bars')
    expect(await page.locator('[data-total]').textContent()).toBe('0')
    expect(await page.locator('[data-waiting]').textContent()).toBe('0')
    expect(await page.locator('[data-open-handoffs]').getAttribute('data-open-handoffs')).toBe('0')
    expect(await page.locator('[data-csat-value]').textContent()).toBe('no ratings')
    await page.locator('[data-published-flow=Echo]').waitFor()
    expect(await page.locator('[data-published-flow=Echo]').textContent()).toContain('Echo version 1')
    expect(await page.locator('[data-published-flow=Echo]').textContent()).not.toContain('unpublished changes')
    // A working copy edited after publishing says so.
    const flows = `/api/dev/v1/chatbots/${chat.chatbotId}/flows`
    const [echo] = (await suite.bed.must('GET', flows)).items
    const definition = (await suite.bed.must('GET', `${flows}/${echo.id}`)).flow
    await suite.bed.must('PATCH', `${flows}/${echo.id}`, { flow: { ...definition, states: { ...definition.states, spare: { say: [{ text: 'Not live yet.' }] } } } })
    await page.reload()
    await waitUntil(async () => ((await page.locator('[data-published-flow=Echo]').textContent()) ?? '').includes('conversation, unpublished changes'), 'the unpublished changes marked')
    // An admin goes from the console to the desk and back by links.
    await page.locator('.console-nav [data-nav=desk]').click()
    await page.locator('.desk').waitFor()
    await page.locator('[data-nav=console]').click()
    await page.locator('.console table.chatbots').waitFor()
    expect(admin.errors()).toEqual([])
  }, E2E_TIMEOUT)

  test('keys: created and shown once, revoked, and the revoked key is refused', async () => {
    const admin = await consoleOf(suite.ada, '/app/console/keys')
    const { page } = admin
    await page.locator('input[name=key-name]').fill('Console key')
    await page.getByRole('button', { name: 'Create key' }).click()
    const key = (await page.locator('[data-new-key]').textContent())?.trim() as string
    expect(key).toMatch(/^pk_[0-9A-Za-z]{40}$/)
    const works = await fetch(`${suite.bed.url}/api/dev/v1/chatbots`, { headers: { authorization: `Bearer ${key}` } })
    expect(works.status).toBe(200)
    await page.getByRole('button', { name: 'Done' }).click()
    expect(await page.locator('[data-new-key]').count()).toBe(0)
    expect(await page.content()).not.toContain(key)

    const row = page.locator(`tr[data-prefix="${key.slice(0, 11)}"]`)
    await page.reload()
    await waitUntil(async () => ((await row.textContent()) ?? '').includes('Console key') && !((await row.textContent()) ?? '').includes('never'), 'the key listed with its last use')
    await row.getByRole('button', { name: 'Revoke' }).click()
    await page.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click()
    await row.locator('[data-revoked]').waitFor()
    await waitUntil(async () => (await fetch(`${suite.bed.url}/api/dev/v1/chatbots`, { headers: { authorization: `Bearer ${key}` } })).status === 401, 'the revoked key refused')
    expect(admin.errors()).toEqual([])
  }, E2E_TIMEOUT)

  test('operations: version, uptime, database size, the latest log lines and a backup download', async () => {
    const admin = await consoleOf(suite.ada, '/app/console/operations')
    const { page } = admin
    await page.locator('[data-version]').waitFor()
    expect(await page.locator('[data-version]').textContent()).toMatch(/^\d+\.\d+\.\d+/)
    expect(await page.locator('[data-database]').textContent()).toMatch(/\d+(\.\d)? (KB|MB)/)
    // Which database this Parley keeps its data in, and where (issue 26: the operations screen names it).
    expect(await page.locator('[data-database-engine="sqlite"]').textContent()).toMatch(/^SQLite, in \/.*parley\.db$/)
    await waitUntil(async () => ((await page.locator('[data-logs]').textContent()) ?? '').includes('/api/dev/v1/operations'), 'the request log lines')
    const [download] = await Promise.all([page.waitForEvent('download'), page.locator('[data-backup]').click()])
    expect(download.suggestedFilename()).toMatch(/^parley-backup-.*\.db$/)
    const file = await download.path()
    expect(new TextDecoder().decode((await Bun.file(file).arrayBuffer()).slice(0, 15))).toBe('SQLite format 3')
    expect(admin.errors()).toEqual([])
  }, E2E_TIMEOUT)

  test('an agent sees none of the console, no menu item that refuses them, and none of its data is asked for', async () => {
    const agent = await consoleOf(sam, '/app/console/keys')
    const { page } = agent
    const loaded: string[] = []
    page.on('request', (request) => loaded.push(new URL(request.url()).pathname))
    await page.locator('.refused').waitFor()
    expect(await page.locator('.refused').textContent()).toContain('for admins')
    // No menu item that would only refuse them: the way to the desk, and only that.
    expect(await page.locator('.console-nav a').allTextContents()).toEqual(['Desk'])
    await page.reload()
    await page.locator('.refused').waitFor()
    expect(loaded.filter((path) => path.startsWith('/api/dev/v1/') && path !== '/api/dev/v1/auth/me')).toEqual([])
    expect(await page.locator('table.keys').count()).toBe(0)
  }, E2E_TIMEOUT)

  test('phone width: the chatbots list and the overview fit the screen', async () => {
    const chat = await suite.bed.webChat(undefined, 'Phone bot')
    const admin = await consoleOf(suite.ada, '/app/console', { viewport: { width: 375, height: 740 }, isMobile: true })
    const { page } = admin
    await page.locator('table.chatbots').waitFor()
    const overflow = () => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
    expect(await overflow()).toBeLessThanOrEqual(0)
    await page.goto(`${suite.bed.url}/app/console/bots/${chat.chatbotId}`)
    await page.locator('.chart').waitFor()
    expect(await overflow()).toBeLessThanOrEqual(0)
  }, E2E_TIMEOUT)
})
