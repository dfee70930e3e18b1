import { describe, expect, test } from 'bun:test'
import { type Json, errorsOf, flow, options, screen, single, warningsOf } from './support.ts'

const FIRST = '/screens/0/layout/children/0'
const text = (length: number) => 'x'.repeat(length)
const choice = (type: string, extra: Json = {}): Json => ({ type, name: 'pick', label: 'Pick', 'data-source': options(2), ...extra })
const footer = (extra: Json = {}): Json => ({ type: 'Footer', label: 'Done', 'on-click-action': { name: 'complete', payload: {} }, ...extra })
/** A terminal screen whose only Footer is `component` (so Footer limits can be tested). */
const asFooter = (component: Json) => flow([screen('ONLY', [component], { terminal: true })])

/** [what, limit, component with the text of a given length, path of that text below the component] */
const CHARACTER_LIMITS: [string, number, (value: string) => Json, string][] = [
  ['TextHeading text', 80, (value) => ({ type: 'TextHeading', text: value }), '/text'],
  ['TextSubheading text', 80, (value) => ({ type: 'TextSubheading', text: value }), '/text'],
  ['TextBody text', 4096, (value) => ({ type: 'TextBody', text: value }), '/text'],
  ['TextCaption text', 409, (value) => ({ type: 'TextCaption', text: value }), '/text'],
  ['TextInput label', 20, (value) => ({ type: 'TextInput', name: 'name', label: value }), '/label'],
  ['TextInput helper-text', 80, (value) => ({ type: 'TextInput', name: 'name', label: 'Name', 'helper-text': value }), '/helper-text'],
  ['TextInput error-message', 30, (value) => ({ type: 'TextInput', name: 'name', label: 'Name', 'error-message': value }), '/error-message'],
  ['TextArea label', 20, (value) => ({ type: 'TextArea', name: 'note', label: value }), '/label'],
  ['TextArea helper-text', 80, (value) => ({ type: 'TextArea', name: 'note', label: 'Note', 'helper-text': value }), '/helper-text'],
  ['CheckboxGroup label', 30, (value) => choice('CheckboxGroup', { label: value }), '/label'],
  ['CheckboxGroup description', 300, (value) => choice('CheckboxGroup', { description: value }), '/description'],
  ['CheckboxGroup option title', 30, (value) => choice('CheckboxGroup', { 'data-source': [{ id: 'a', title: value }] }), '/data-source/0/title'],
  ['CheckboxGroup option description', 300, (value) => choice('CheckboxGroup', { 'data-source': [{ id: 'a', title: 'A', description: value }] }), '/data-source/0/description'],
  ['CheckboxGroup option metadata', 20, (value) => choice('CheckboxGroup', { 'data-source': [{ id: 'a', title: 'A', metadata: value }] }), '/data-source/0/metadata'],
  ['RadioButtonsGroup label', 30, (value) => choice('RadioButtonsGroup', { label: value }), '/label'],
  ['RadioButtonsGroup option title', 30, (value) => choice('RadioButtonsGroup', { 'data-source': [{ id: 'a', title: value }] }), '/data-source/0/title'],
  ['RadioButtonsGroup option description', 300, (value) => choice('RadioButtonsGroup', { 'data-source': [{ id: 'a', title: 'A', description: value }] }), '/data-source/0/description'],
  ['RadioButtonsGroup option metadata', 20, (value) => choice('RadioButtonsGroup', { 'data-source': [{ id: 'a', title: 'A', metadata: value }] }), '/data-source/0/metadata'],
  ['Dropdown label', 20, (value) => choice('Dropdown', { label: value }), '/label'],
  ['Dropdown option title', 30, (value) => choice('Dropdown', { 'data-source': [{ id: 'a', title: value }] }), '/data-source/0/title'],
  ['OptIn label', 120, (value) => ({ type: 'OptIn', name: 'agree', label: value }), '/label'],
  ['DatePicker label', 40, (value) => ({ type: 'DatePicker', name: 'day', label: value }), '/label'],
  ['CalendarPicker title', 80, (value) => ({ type: 'CalendarPicker', name: 'day', label: 'Day', title: value }), '/title'],
]

describe('Character limits (MAXIMUM_VALUE_REQUIRED)', () => {
  for (const [what, limit, make, path] of CHARACTER_LIMITS) {
    test(`${what}: ${limit} characters are accepted`, () => {
      expect(errorsOf(single([make(text(limit))]))).toEqual([])
    })
    test(`${what}: ${limit + 1} characters are refused`, () => {
      expect(errorsOf(single([make(text(limit + 1))]))).toEqual([`MAXIMUM_VALUE_REQUIRED ${FIRST}${path}`])
    })
  }

  test('Footer label: 35 characters are accepted, 36 refused', () => {
    expect(errorsOf(asFooter(footer({ label: text(35) })))).toEqual([])
    expect(errorsOf(asFooter(footer({ label: text(36) })))).toEqual([`MAXIMUM_VALUE_REQUIRED ${FIRST}/label`])
  })

  for (const caption of ['left-caption', 'right-caption', 'center-caption']) {
    test(`Footer ${caption}: 15 characters are accepted, 16 refused`, () => {
      const captions = (length: number): Json =>
        caption === 'center-caption' ? { 'center-caption': text(length) } : { 'left-caption': 'L', 'right-caption': 'R', [caption]: text(length) }
      expect(errorsOf(asFooter(footer(captions(15))))).toEqual([])
      expect(errorsOf(asFooter(footer(captions(16))))).toEqual([`MAXIMUM_VALUE_REQUIRED ${FIRST}/${caption}`])
    })
  }

  test('characters are counted as people count them: 30 emoji fit a 30-character title', () => {
    expect(errorsOf(single([choice('Dropdown', { 'data-source': [{ id: 'a', title: '🏡'.repeat(30) }] })]))).toEqual([])
    expect(errorsOf(single([choice('Dropdown', { 'data-source': [{ id: 'a', title: '🏡'.repeat(31) }] })]))).toEqual([`MAXIMUM_VALUE_REQUIRED ${FIRST}/data-source/0/title`])
  })

  test('a list of texts counts all of them together', () => {
    expect(errorsOf(single([{ type: 'TextCaption', text: [text(200), text(209)] }]))).toEqual([])
    expect(errorsOf(single([{ type: 'TextCaption', text: [text(200), text(210)] }]))).toEqual([`MAXIMUM_VALUE_REQUIRED ${FIRST}/text`])
  })

  test('a bound value is not measured', () => {
    expect(errorsOf(single([{ type: 'TextHeading', text: '${data.title}' }], '7.0', { data: { title: { type: 'string', __example__: text(100) } } }))).toEqual([])
  })
})

describe('EmbeddedLink 25 characters: only a warning, since a provider sample has 30 (MAXIMUM_VALUE_REQUIRED)', () => {
  const link = (value: string): Json => ({ type: 'EmbeddedLink', text: value, 'on-click-action': { name: 'open_url', url: 'https://example.com' } })

  test('25 characters raise nothing', () => {
    expect(errorsOf(single([link(text(25))]))).toEqual([])
    expect(warningsOf(single([link(text(25))]))).toEqual([])
  })

  test('26 characters warn at the text and are not an error', () => {
    expect(errorsOf(single([link(text(26))]))).toEqual([])
    expect(warningsOf(single([link(text(26))]))).toEqual([`MAXIMUM_VALUE_REQUIRED ${FIRST}/text`])
  })
})

describe('Option counts: CheckboxGroup and RadioButtonsGroup 1–20, Dropdown 1–200 or 100 with images (MIN_ITEMS_REQUIRED, MAXIMUM_VALUE_REQUIRED)', () => {
  for (const [type, max] of [
    ['CheckboxGroup', 20],
    ['RadioButtonsGroup', 20],
    ['Dropdown', 200],
    ['ChipsSelector', 20],
  ] as [string, number][]) {
    test(`${type}: 1 and ${max} options are accepted`, () => {
      expect(errorsOf(single([choice(type, { 'data-source': options(1) })]))).toEqual([])
      expect(errorsOf(single([choice(type, { 'data-source': options(max) })]))).toEqual([])
    })
    test(`${type}: no options are refused`, () => {
      expect(errorsOf(single([choice(type, { 'data-source': [] })]))).toEqual([`MIN_ITEMS_REQUIRED ${FIRST}/data-source`])
    })
    test(`${type}: ${max + 1} options are refused`, () => {
      expect(errorsOf(single([choice(type, { 'data-source': options(max + 1) })]))).toEqual([`MAXIMUM_VALUE_REQUIRED ${FIRST}/data-source`])
    })
  }

  test('Dropdown: 100 options with images are accepted, 101 refused', () => {
    expect(errorsOf(single([choice('Dropdown', { 'data-source': options(100, { image: 'aGk=' }) })]))).toEqual([])
    expect(errorsOf(single([choice('Dropdown', { 'data-source': options(101, { image: 'aGk=' }) })]))).toEqual([`MAXIMUM_VALUE_REQUIRED ${FIRST}/data-source`])
  })

  test('ImageCarousel: 1 to 3 images', () => {
    const carousel = (count: number) => ({ type: 'ImageCarousel', images: Array.from({ length: count }, () => ({ src: 'aGk=', 'alt-text': 'Hi' })) })
    expect(errorsOf(single([carousel(3)], '7.1'))).toEqual([])
    expect(errorsOf(single([carousel(4)], '7.1'))).toEqual([`MAXIMUM_VALUE_REQUIRED ${FIRST}/images`])
    expect(errorsOf(single([carousel(0)], '7.1'))).toEqual([`MIN_ITEMS_REQUIRED ${FIRST}/images`])
  })

  test('NavigationList: 1 to 20 items', () => {
    const menu = (count: number) => ({ type: 'NavigationList', name: 'menu', 'list-items': Array.from({ length: count }, (_, i) => ({ id: `i${i}`, 'main-content': { title: 'Item' } })) })
    expect(errorsOf(single([menu(20)]))).toEqual([])
    expect(errorsOf(single([menu(21)]))).toEqual([`MAXIMUM_VALUE_REQUIRED ${FIRST}/list-items`])
  })
})

describe('Footer: center-caption alone, or left+right together (INVALID_DEPENDENCIES)', () => {
  test('center-caption alone is fine', () => {
    expect(errorsOf(asFooter(footer({ 'center-caption': 'Step 2' })))).toEqual([])
  })

  test('left and right together are fine', () => {
    expect(errorsOf(asFooter(footer({ 'left-caption': '$10', 'right-caption': 'Total' })))).toEqual([])
  })

  test('center with a side caption is refused at center-caption', () => {
    expect(errorsOf(asFooter(footer({ 'center-caption': 'Step 2', 'left-caption': '$10' })))).toEqual([`INVALID_DEPENDENCIES ${FIRST}/center-caption`])
  })

  test('left without right is refused where right is missing', () => {
    expect(errorsOf(asFooter(footer({ 'left-caption': '$10' })))).toEqual([`INVALID_DEPENDENCIES ${FIRST}/right-caption`])
  })

  test('right without left is refused where left is missing', () => {
    expect(errorsOf(asFooter(footer({ 'right-caption': 'Total' })))).toEqual([`INVALID_DEPENDENCIES ${FIRST}/left-caption`])
  })
})

describe('min ≤ max (MIN_VALUE_GREATER_THAN_MAX)', () => {
  /** [component, min key, max key, a valid pair, an invalid pair] */
  const pairs: [Json, string, string, [unknown, unknown], [unknown, unknown]][] = [
    [{ type: 'TextInput', name: 'code', label: 'Code' }, 'min-chars', 'max-chars', [4, 4], [5, 4]],
    [choice('CheckboxGroup', { 'data-source': options(5) }), 'min-selected-items', 'max-selected-items', [1, 3], [4, 3]],
    [choice('ChipsSelector', { 'data-source': options(5) }), 'min-selected-items', 'max-selected-items', [2, 2], [3, 2]],
    [{ type: 'DatePicker', name: 'day', label: 'Day' }, 'min-date', 'max-date', ['2024-01-01', '2024-12-31'], ['2025-01-01', '2024-12-31']],
    [{ type: 'DatePicker', name: 'day', label: 'Day' }, 'min-date', 'max-date', ['1693569600000', '1767182400000'], ['1767182400000', '1693569600000']],
    [{ type: 'CalendarPicker', name: 'day', label: 'Day' }, 'min-date', 'max-date', ['2024-10-21', '2025-12-12'], ['2026-01-01', '2025-12-12']],
    [{ type: 'CalendarPicker', name: 'days', label: 'Days', mode: 'range' }, 'min-days', 'max-days', [3, 10], [11, 10]],
    [{ type: 'PhotoPicker', name: 'photo', label: 'Photo' }, 'min-uploaded-photos', 'max-uploaded-photos', [1, 3], [4, 3]],
    [{ type: 'DocumentPicker', name: 'file', label: 'File' }, 'min-uploaded-documents', 'max-uploaded-documents', [0, 1], [2, 1]],
  ]
  for (const [component, minKey, maxKey, [okMin, okMax], [badMin, badMax]] of pairs) {
    test(`${component.type} ${minKey} ${JSON.stringify(okMin)} with ${maxKey} ${JSON.stringify(okMax)} is fine`, () => {
      expect(errorsOf(single([{ ...component, [minKey]: okMin, [maxKey]: okMax }]))).toEqual([])
    })
    test(`${component.type} ${minKey} ${JSON.stringify(badMin)} above ${maxKey} ${JSON.stringify(badMax)} is refused at ${minKey}`, () => {
      expect(errorsOf(single([{ ...component, [minKey]: badMin, [maxKey]: badMax }]))).toEqual([`MIN_VALUE_GREATER_THAN_MAX ${FIRST}/${minKey}`])
    })
  }

  test('bound bounds are not compared', () => {
    const data = { data: { low: { type: 'number', __example__: 9 }, high: { type: 'number', __example__: 1 } } }
    expect(errorsOf(single([{ type: 'TextInput', name: 'code', label: 'Code', 'min-chars': '${data.low}', 'max-chars': '${data.high}' }], '7.0', data))).toEqual([])
  })
})
