import { describe, expect, test } from 'bun:test'
import { SAMPLE } from '../attachments/sample-files.ts'
import { E2E_TIMEOUT } from './support/browser.ts'
import { deskSuite } from './support/desk-suite.ts'
import { waitUntil } from './support/widget-page.ts'

/** The pictures drawn in a page or a shadow root: their address and whether they loaded (a CSP block or a 404 leaves width 0). */
const PICTURES = (selector: string) => {
  const host = document.querySelector('#parley-widget')?.shadowRoot
  const images = [...document.querySelectorAll<HTMLImageElement>(selector), ...(host ? [...host.querySelectorAll<HTMLImageElement>(selector)] : [])]
  return images.map((image) => ({ src: image.src, loaded: image.complete && image.naturalWidth > 0 }))
}

describe('files between the widget and the desk (Chromium, compiled binary)', () => {
  const suite = deskSuite()

  test("the agent's picture sent from the desk shows inline in the desk and in the visitor's widget; a refused type is said, not sent", async () => {
    const { visitor, conversationId } = await suite.visitorSays('Can you send me the label?')
    const ada = await suite.desk(suite.ada)
    await ada.goto(`/app/c/${conversationId}`)
    await ada.messagesWhen((shown) => shown.some((message) => message.role === 'visitor'), 'the history')

    const attach = ada.page.getByRole('button', { name: 'Attach a file (picture or PDF)' })
    await attach.waitFor()
    // An SVG is refused by the server by its bytes, even named and typed as a PNG: the desk says why and sends nothing.
    await ada.page.locator('[data-testid="attach-input"]').setInputFiles({ name: 'label.png', mimeType: 'image/png', buffer: Buffer.from(SAMPLE.svg) })
    await ada.page.locator('.composer .form-error', { hasText: 'label.png was not sent: only PNG, JPEG, GIF or WebP images and PDF files can be sent; this file is an SVG image' }).waitFor()
    // A type the browser knows is not kept is refused before a byte is sent.
    await ada.page.locator('[data-testid="attach-input"]').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('hello') })
    await ada.page.locator('.composer .form-error', { hasText: 'notes.txt was not sent: only PNG, JPEG, GIF or WebP pictures and PDF files can be sent.' }).waitFor()

    await ada.page.locator('[data-testid="attach-input"]').setInputFiles({ name: 'label.png', mimeType: 'image/png', buffer: Buffer.from(SAMPLE.png) })
    await waitUntil(async () => (await ada.page.evaluate(PICTURES, '.message.agent img')).some((picture) => picture.loaded), 'the desk shows the picture it sent')
    const [inDesk] = await ada.page.evaluate(PICTURES, '.message.agent img')
    expect(inDesk?.src).toStartWith(`${suite.bed.url}/attachments/`)
    await waitUntil(async () => (await visitor.page.evaluate(PICTURES, '.msg.agent img')).some((picture) => picture.loaded), 'the widget shows the picture')
    expect((await visitor.page.evaluate(PICTURES, '.msg.agent img'))[0]?.src).toBe(inDesk!.src)
    expect(ada.watched.console.filter((line) => line.includes('Content Security Policy'))).toEqual([])
    // Only one agent message: the refused SVG was never stored.
    const stored = await suite.bed.must('GET', `/api/dev/v1/desk/conversations/${conversationId}/timeline`)
    const agentMessages = stored.items.filter((item: any) => item.type === 'message' && item.message.role === 'agent')
    expect(agentMessages.map((item: any) => item.message.content.media?.filename)).toEqual(['label.png'])
  }, E2E_TIMEOUT)

  test("the visitor's picture, sent with the widget's paperclip, shows inline on the desk, live", async () => {
    const { visitor, conversationId } = await suite.visitorSays('Here is the damage')
    const ada = await suite.desk(suite.ada)
    await ada.goto(`/app/c/${conversationId}`)
    await ada.messagesWhen((shown) => shown.some((message) => message.role === 'visitor'), 'the history')

    await visitor.page.locator('#parley-widget input[type=file]').setInputFiles({ name: 'dent.png', mimeType: 'image/png', buffer: Buffer.from(SAMPLE.png) })
    await waitUntil(async () => (await visitor.page.evaluate(PICTURES, '.msg.visitor img')).some((picture) => picture.loaded), 'the widget shows the picture its visitor sent')
    await waitUntil(async () => (await ada.page.evaluate(PICTURES, '.message.visitor img')).some((picture) => picture.loaded), "the desk shows the visitor's picture")
    const [inDesk] = await ada.page.evaluate(PICTURES, '.message.visitor img')
    expect(inDesk?.src).toStartWith(`${suite.bed.url}/attachments/`)
    expect((await visitor.page.evaluate(PICTURES, '.msg.visitor img'))[0]?.src).toBe(inDesk!.src)
    // The list row reads it as the flow does.
    const row = await suite.bed.must('GET', `/api/dev/v1/desk/conversations/${conversationId}`)
    expect(row.last_message).toMatchObject({ role: 'visitor', preview: '[image] dent.png' })
  }, E2E_TIMEOUT)
})
