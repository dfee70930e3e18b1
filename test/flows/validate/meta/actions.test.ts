import { describe, expect, test } from 'bun:test'
import { type Json, completeFooter, end, errorsOf, flow, navigateFooter, options, screen, single, textInput } from './support.ts'

const FIRST = '/screens/0/layout/children/0'
const link = (action: Json): Json => ({ type: 'EmbeddedLink', text: 'More', 'on-click-action': action })
const endpoint = (ids: string[]) => ({ data_api_version: '3.0', routing_model: Object.fromEntries(ids.map((id) => [id, []])) })

describe('complete only on terminal screens (INVALID_COMPLETE_ACTION)', () => {
  test('complete on a non-terminal screen is refused at the action name', () => {
    const document = flow([screen('A', [navigateFooter('B')]), screen('B', [completeFooter()]), end('C')], { routing_model: { A: ['B', 'C'], B: [], C: [] } })
    expect(errorsOf(document)).toEqual(['INVALID_COMPLETE_ACTION /screens/1/layout/children/0/on-click-action/name'])
  })

  test('complete on a terminal screen is fine', () => {
    expect(errorsOf(flow([end('A')]))).toEqual([])
  })
})

describe('complete only on a Footer (INVALID_COMPLETE_ACTION)', () => {
  test('complete on an EmbeddedLink is refused', () => {
    expect(errorsOf(single([link({ name: 'complete', payload: {} })]))).toEqual([`INVALID_COMPLETE_ACTION ${FIRST}/on-click-action/name`])
  })

  test('complete on an OptIn is refused', () => {
    expect(errorsOf(single([{ type: 'OptIn', name: 'agree', label: 'I agree', 'on-click-action': { name: 'complete', payload: {} } }]))).toEqual([
      `INVALID_COMPLETE_ACTION ${FIRST}/on-click-action/name`,
    ])
  })
})

describe('navigate targets an existing, different screen (INVALID_NAVIGATE_ACTION_NEXT_SCREEN_NAME)', () => {
  test('a missing screen is refused at the target name', () => {
    expect(errorsOf(flow([screen('A', [navigateFooter('NOWHERE')]), end('B')]))).toContain(
      'INVALID_NAVIGATE_ACTION_NEXT_SCREEN_NAME /screens/0/layout/children/0/on-click-action/next/name',
    )
  })

  test('the screen itself is refused at the target name', () => {
    expect(errorsOf(flow([end('A', [{ type: 'EmbeddedLink', text: 'Again', 'on-click-action': { name: 'navigate', next: { type: 'screen', name: 'A' }, payload: {} } }])]))).toEqual([
      `INVALID_NAVIGATE_ACTION_NEXT_SCREEN_NAME ${FIRST}/on-click-action/next/name`,
    ])
  })

  test('another existing screen is fine', () => {
    expect(errorsOf(flow([screen('A', [navigateFooter('B')]), end('B')]))).toEqual([])
  })
})

describe("Navigate payload keys and types equal the target screen's data (INVALID_NAVIGATE_ACTION_PAYLOAD)", () => {
  const target = end('B', [], {
    data: { name: { type: 'string', __example__: 'Ada' }, age: { type: 'number', __example__: 36 }, picks: { type: 'array', items: { type: 'string' }, __example__: ['a'] } },
  })
  const from = (payload: Json | undefined, inputs: Json[] = []) => {
    const footer = navigateFooter('B', payload ?? {})
    if (payload === undefined) delete (footer['on-click-action'] as Json).payload
    return flow([screen('A', [...inputs, footer]), target])
  }
  const PAYLOAD = '/screens/0/layout/children/0/on-click-action/payload'

  test('an exact payload of static values is fine', () => {
    expect(errorsOf(from({ name: 'Ada', age: 36, picks: ['a'] }))).toEqual([])
  })

  test('form values of the declared types are fine', () => {
    const inputs = [textInput('who'), textInput('years', { 'input-type': 'number' }), { type: 'CheckboxGroup', name: 'chosen', label: 'Pick', 'data-source': options(2) }]
    const document = from({ name: '${form.who}', age: '${form.years}', picks: '${form.chosen}' }, inputs)
    expect(errorsOf(document)).toEqual([])
  })

  test('a missing key is refused at the payload', () => {
    expect(errorsOf(from({ name: 'Ada', age: 36 }))).toEqual([`INVALID_NAVIGATE_ACTION_PAYLOAD ${PAYLOAD}`])
  })

  test('a missing payload is refused when the target declares data', () => {
    expect(errorsOf(from(undefined))).toEqual([`INVALID_NAVIGATE_ACTION_PAYLOAD ${PAYLOAD}`])
  })

  test('an extra key is refused at that key', () => {
    expect(errorsOf(from({ name: 'Ada', age: 36, picks: [], colour: 'red' }))).toEqual([`INVALID_NAVIGATE_ACTION_PAYLOAD ${PAYLOAD}/colour`])
  })

  test('a value of another type is refused at that key', () => {
    expect(errorsOf(from({ name: 'Ada', age: '36', picks: [] }))).toEqual([`INVALID_NAVIGATE_ACTION_PAYLOAD ${PAYLOAD}/age`])
  })

  test('a form value of another type is refused at that key', () => {
    const document = from({ name: 'Ada', age: 36, picks: '${form.who}' }, [textInput('who')])
    expect(errorsOf(document)).toEqual([`INVALID_NAVIGATE_ACTION_PAYLOAD /screens/0/layout/children/1/on-click-action/payload/picks`])
  })
})

describe('open_url only on EmbeddedLink or OptIn (INVALID_OPEN_URL_ACTION)', () => {
  const openUrl = { name: 'open_url', url: 'https://example.com' }

  test('on an EmbeddedLink and an OptIn it is fine', () => {
    expect(errorsOf(single([link(openUrl), { type: 'OptIn', name: 'terms', label: 'I accept the terms', 'on-click-action': openUrl }]))).toEqual([])
  })

  test('on a Footer it is refused', () => {
    expect(errorsOf(flow([screen('A', [{ type: 'Footer', label: 'Site', 'on-click-action': openUrl }], { terminal: true })]))).toEqual([
      `INVALID_OPEN_URL_ACTION ${FIRST}/on-click-action/name`,
    ])
  })

  test('on a NavigationList item it is refused', () => {
    const menu = { type: 'NavigationList', name: 'menu', 'list-items': [{ id: 'a', 'main-content': { title: 'A' }, 'on-click-action': openUrl }] }
    expect(errorsOf(single([menu]))).toEqual([`INVALID_OPEN_URL_ACTION ${FIRST}/list-items/0/on-click-action/name`])
  })
})

describe('DatePicker/CalendarPicker on-select-action is data_exchange only (INVALID_ON_SELECT_ACTION)', () => {
  const exchange = { name: 'data_exchange', payload: { date: '${form.date}' } }
  const update = { name: 'update_data', payload: { picked: true } }
  const data = { data: { picked: { type: 'boolean', __example__: false } } }

  for (const type of ['DatePicker', 'CalendarPicker']) {
    test(`${type} with data_exchange is fine`, () => {
      const document = flow([end('ONLY', [{ type, name: 'date', label: 'Date', 'on-select-action': exchange }])], endpoint(['ONLY']))
      expect(errorsOf(document)).toEqual([])
    })

    test(`${type} with update_data is refused`, () => {
      expect(errorsOf(single([{ type, name: 'date', label: 'Date', 'on-select-action': update }], '7.0', data))).toEqual([`INVALID_ON_SELECT_ACTION ${FIRST}/on-select-action/name`])
    })
  }
})

describe('Picker values never in navigate payloads; in complete payloads only when max-uploaded ≤1 (INVALID_MEDIA_PICKER_PAYLOAD)', () => {
  const photo = (extra: Json = {}): Json => ({ type: 'PhotoPicker', name: 'photo', label: 'Photo', ...extra })
  const completing = (picker: Json, payload: Json) => flow([screen('A', [picker, completeFooter(payload)], { terminal: true })])

  test('a PhotoPicker value in a navigate payload is refused at that value', () => {
    const document = flow([
      screen('A', [photo({ 'max-uploaded-photos': 1 }), navigateFooter('B', { photos: '${form.photo}' })]),
      end('B', [], { data: { photos: { type: 'array', items: { type: 'object' }, __example__: [] } } }),
    ])
    expect(errorsOf(document)).toEqual(['INVALID_MEDIA_PICKER_PAYLOAD /screens/0/layout/children/1/on-click-action/payload/photos'])
  })

  test('a single-file picker value in a complete payload is fine', () => {
    expect(errorsOf(completing(photo({ 'max-uploaded-photos': 1 }), { photos: '${form.photo}' }))).toEqual([])
  })

  test('a multi-file picker value in a complete payload is refused', () => {
    expect(errorsOf(completing(photo({ 'max-uploaded-photos': 3 }), { photos: '${form.photo}' }))).toEqual([
      'INVALID_MEDIA_PICKER_PAYLOAD /screens/0/layout/children/1/on-click-action/payload/photos',
    ])
  })

  test('without max-uploaded-documents the default allows many files, so complete refuses it', () => {
    const document = completing({ type: 'DocumentPicker', name: 'file', label: 'File' }, { file: '${form.file}' })
    expect(errorsOf(document)).toEqual(['INVALID_MEDIA_PICKER_PAYLOAD /screens/0/layout/children/1/on-click-action/payload/file'])
  })

  test('a multi-file picker value sent with data_exchange is fine', () => {
    const document = flow(
      [screen('A', [photo({ 'max-uploaded-photos': 10 }), { type: 'Footer', label: 'Send', 'on-click-action': { name: 'data_exchange', payload: { photos: '${form.photo}' } } }], { terminal: true })],
      endpoint(['A']),
    )
    expect(errorsOf(document)).toEqual([])
  })
})

describe('Each action property takes only its own actions (INVALID_ENUM_VALUE)', () => {
  test('an action name that does not exist is refused', () => {
    expect(errorsOf(single([link({ name: 'submit', payload: {} })]))).toEqual([`INVALID_ENUM_VALUE ${FIRST}/on-click-action/name`])
  })

  test('a selection that navigates is refused', () => {
    const dropdown = { type: 'Dropdown', name: 'pick', label: 'Pick', 'data-source': options(2), 'on-select-action': { name: 'navigate', next: { type: 'screen', name: 'ONLY' }, payload: {} } }
    expect(errorsOf(single([dropdown]))).toEqual([`INVALID_ENUM_VALUE ${FIRST}/on-select-action/name`])
  })
})

describe('update_data sets declared fields of its screen (INVALID_UPDATE_DATA_ACTION_PAYLOAD)', () => {
  const dropdown = (payload: Json): Json => ({ type: 'Dropdown', name: 'pick', label: 'Pick', 'data-source': options(2), 'on-select-action': { name: 'update_data', payload } })
  const data = { data: { show_more: { type: 'boolean', __example__: false } } }

  test('a declared field with a value of its type is fine', () => {
    expect(errorsOf(single([dropdown({ show_more: true })], '7.0', data))).toEqual([])
  })

  test('an undeclared field is refused at that key', () => {
    expect(errorsOf(single([dropdown({ show_less: true })], '7.0', data))).toEqual([`INVALID_UPDATE_DATA_ACTION_PAYLOAD ${FIRST}/on-select-action/payload/show_less`])
  })

  test('a value of another type is refused at that key', () => {
    expect(errorsOf(single([dropdown({ show_more: 'yes' })], '7.0', data))).toEqual([`INVALID_UPDATE_DATA_ACTION_PAYLOAD ${FIRST}/on-select-action/payload/show_more`])
  })
})
