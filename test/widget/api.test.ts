import { describe, expect, test } from 'bun:test'
import { createWidgetApi, installWidgetApi, isWidgetInstalled, type VisitorProfile } from '../../widget/src/api.ts'
import { QUEUE_STUB } from '../../widget/src/queue-stub.ts'

/** Runs the documented one-line stub against a bare object standing in for `window`. */
function runStub(win: Record<string, any>) {
  new Function('window', QUEUE_STUB)(win)
}

function widget() {
  const profile: VisitorProfile = { contactDetails: {} }
  const warnings: string[] = []
  const events: string[] = []
  const { api, listen } = createWidgetApi(profile, (message) => warnings.push(message))
  return { profile, warnings, events, api, listen }
}

describe('window.ParleyWidget and the queue stub', () => {
  test('the stub queues calls made before the script loads, and the widget replays them in order', () => {
    const win: Record<string, any> = {}
    runStub(win)
    win.ParleyWidget.setContactDetails({ plan: 'pro' })
    win.ParleyWidget.identify('ada@lovelace.dev', { hash: 'b'.repeat(64) })
    win.ParleyWidget.setContactDetails({ seats: 3 })
    expect(win.ParleyWidget.q).toHaveLength(3)

    const { profile, api } = widget()
    installWidgetApi(win, api)
    expect(profile).toEqual({ userId: 'ada@lovelace.dev', userHash: 'b'.repeat(64), contactDetails: { plan: 'pro', seats: 3 } })
    expect(win.ParleyWidget.q).toBeUndefined()
    expect(win.ParleyWidget.loaded).toBe(true)
  })

  test('keeps the stub object, so a reference the page took early keeps working', () => {
    const win: Record<string, any> = {}
    runStub(win)
    const early = win.ParleyWidget
    const { profile, api } = widget()
    installWidgetApi(win, api)
    expect(win.ParleyWidget).toBe(early)
    early.identify('+44 20 7946 0958')
    expect(profile.userId).toBe('+44 20 7946 0958')
  })

  test('the stub survives being destructured and called loose', () => {
    const win: Record<string, any> = {}
    runStub(win)
    const { identify } = win.ParleyWidget
    identify('ada@lovelace.dev')
    expect(win.ParleyWidget.q).toEqual([['identify', ['ada@lovelace.dev']]])
  })

  test('the stub run after the widget loaded changes nothing', () => {
    const win: Record<string, any> = {}
    const { profile, api } = widget()
    installWidgetApi(win, api)
    const loaded = win.ParleyWidget
    runStub(win)
    expect(win.ParleyWidget).toBe(loaded)
    win.ParleyWidget.identify('ada@lovelace.dev')
    expect(profile.userId).toBe('ada@lovelace.dev')
  })

  test('without a stub the API is created; the page can tell the widget is installed', () => {
    const win: Record<string, any> = {}
    expect(isWidgetInstalled(win)).toBe(false)
    runStub(win)
    expect(isWidgetInstalled(win)).toBe(false)
    installWidgetApi(win, widget().api)
    expect(isWidgetInstalled(win)).toBe(true)
  })

  test('a queued call to an unknown method is reported and skipped', () => {
    const win: Record<string, any> = { ParleyWidget: { q: [['open', []], ['identify', ['ada@lovelace.dev']]] } }
    const { profile, api, warnings } = widget()
    installWidgetApi(win, api, (message) => warnings.push(message))
    expect(warnings).toEqual(['ignored a queued call to an unknown method "open"'])
    expect(profile.userId).toBe('ada@lovelace.dev')
  })

  test('calls before the session listens are kept in the profile; after, the session is told', () => {
    const { profile, api, listen, events } = widget()
    api.identify('ada@lovelace.dev')
    api.setContactDetails({ plan: 'pro' })
    expect(events).toEqual([])
    listen({ identityChanged: () => events.push(`identity ${profile.userId}`), contactDetailsChanged: (changes) => events.push(`details ${JSON.stringify(changes)}`) })
    api.setContactDetails({ Plan: 'team', seats: 5 })
    api.identify('grace@hopper.dev')
    api.identify('grace@hopper.dev')
    expect(events).toEqual(['details {"plan":"team","seats":5}', 'identity grace@hopper.dev'])
    expect(profile.contactDetails).toEqual({ plan: 'team', seats: 5 })
  })

  test('an invalid identify() warns and leaves the visitor as before', () => {
    const { profile, api, listen, warnings, events } = widget()
    listen({ identityChanged: () => events.push('identity'), contactDetailsChanged: () => events.push('details') })
    api.identify('ada@lovelace.dev')
    api.identify('not an id')
    api.setContactDetails({ nested: { a: 1 } })
    expect(profile.userId).toBe('ada@lovelace.dev')
    expect(events).toEqual(['identity'])
    expect(warnings).toEqual([
      'identify(): "not an id" is neither an e-mail address nor a phone number; the visitor stays as before',
      'setContactDetails(): "nested" is not a string, number or boolean; dropped',
    ])
  })
})

describe('the documented stub', () => {
  test('docs/widget.md shows the exact line the tests run', async () => {
    const docs = await Bun.file(new URL('../../docs/widget.md', import.meta.url).pathname).text()
    expect(docs).toContain(`<script>${QUEUE_STUB}</script>`)
  })
})
