import { describe, expect, test } from 'bun:test'
import { type Json, body, completeFooter, end, errorsOf, flow, form, navigateFooter, options, screen, single, textInput } from './support.ts'

const FIRST = '/screens/0/layout/children/0'
const FLAG = { data: { flag: { type: 'boolean', __example__: true }, kind: { type: 'string', __example__: 'a' } } }

describe('Input names unique, including across If/Switch branches (DUPLICATE_FORM_COMPONENT_NAMES)', () => {
  test('two inputs with one name are refused at the second name', () => {
    expect(errorsOf(single([textInput('email'), textInput('email')]))).toEqual(['DUPLICATE_FORM_COMPONENT_NAMES /screens/0/layout/children/1/name'])
  })

  test('the same name in both branches of an If is refused', () => {
    const document = single([{ type: 'If', condition: '${data.flag}', then: [textInput('email')], else: [textInput('email')] }], '7.0', FLAG)
    expect(errorsOf(document)).toEqual([`DUPLICATE_FORM_COMPONENT_NAMES ${FIRST}/else/0/name`])
  })

  test('the same name in two Switch cases is refused', () => {
    const document = single([{ type: 'Switch', value: '${data.kind}', cases: { a: [textInput('email')], b: [textInput('email')] } }], '7.0', FLAG)
    expect(errorsOf(document)).toEqual([`DUPLICATE_FORM_COMPONENT_NAMES ${FIRST}/cases/b/0/name`])
  })

  test('the same name in two Forms of a screen is refused', () => {
    const document = flow([end('ONLY', [form('one', [textInput('email')]), form('two', [textInput('email')])])], {}, '3.0')
    expect(errorsOf(document)).toEqual(['DUPLICATE_FORM_COMPONENT_NAMES /screens/0/layout/children/1/children/0/name'])
  })

  test('distinct names, or one name on different screens, are fine', () => {
    expect(errorsOf(single([textInput('email'), textInput('phone')]))).toEqual([])
    expect(errorsOf(flow([screen('A', [textInput('email'), navigateFooter('B')]), end('B', [textInput('email')])]))).toEqual([])
  })
})

describe('Before 4.0, inputs inside a Form (KEYWORD_ONE_OF)', () => {
  for (const [type, component] of [
    ['TextInput', textInput('email')],
    ['TextArea', { type: 'TextArea', name: 'note', label: 'Note' }],
    ['CheckboxGroup', { type: 'CheckboxGroup', name: 'pick', 'data-source': options(2) }],
    ['RadioButtonsGroup', { type: 'RadioButtonsGroup', name: 'pick', 'data-source': options(2) }],
    ['OptIn', { type: 'OptIn', name: 'agree', label: 'I agree' }],
    ['Dropdown', { type: 'Dropdown', name: 'pick', label: 'Pick', 'data-source': options(2) }],
    ['DatePicker', { type: 'DatePicker', name: 'day', label: 'Day' }],
  ] as [string, Json][]) {
    test(`a ${type} outside a Form in 3.1 is refused`, () => {
      expect(errorsOf(flow([end('ONLY', [component])], {}, '3.1'))).toEqual([`KEYWORD_ONE_OF ${FIRST}`])
    })
    test(`a ${type} inside a Form in 3.1 is fine`, () => {
      expect(errorsOf(flow([end('ONLY', [form('form', [component])])], {}, '3.1'))).toEqual([])
    })
  }

  test('text outside a Form is fine before 4.0', () => {
    expect(errorsOf(flow([end('ONLY', [body('Hello'), form('form', [textInput('name')])])], {}, '2.1'))).toEqual([])
  })

  test('from 4.0 an input may stand on its own when the screen has no Form', () => {
    expect(errorsOf(single([textInput('email')], '4.0'))).toEqual([])
  })
})

describe('From 4.0, when a Form exists, no inputs outside it (COMPONENTS_OUTSIDE_FORM)', () => {
  test('an input beside a Form is refused at that input', () => {
    expect(errorsOf(single([form('form', [textInput('name')]), textInput('email')], '4.0'))).toEqual(['COMPONENTS_OUTSIDE_FORM /screens/0/layout/children/1'])
  })

  test('an input before the Form is refused too', () => {
    expect(errorsOf(single([textInput('email'), form('form', [textInput('name')])], '7.0'))).toEqual([`COMPONENTS_OUTSIDE_FORM ${FIRST}`])
  })

  test('every input inside the Form, and text outside it, is fine', () => {
    expect(errorsOf(single([body('Hi'), form('form', [textInput('name'), textInput('email')])], '7.0'))).toEqual([])
  })
})

describe('init-values types match; no native pickers in them (INVALID_INIT_VALUES, NATIVE_COMPONENT_IN_FORM_INIT_VALUES)', () => {
  const inputs = [
    textInput('name'),
    { type: 'CheckboxGroup', name: 'topics', label: 'Topics', 'data-source': options(3) },
    { type: 'OptIn', name: 'news', label: 'Send me news' },
    { type: 'PhotoPicker', name: 'photo', label: 'Photo', 'max-uploaded-photos': 1 },
  ]
  const withInit = (initValues: unknown, data: Json = {}) =>
    flow([screen('A', [form('form', [...inputs, completeFooter()], { 'init-values': initValues })], { terminal: true, ...data })])
  const INIT = '/screens/0/layout/children/0/init-values'

  test('values of the inputs\u2019 types are fine', () => {
    expect(errorsOf(withInit({ name: 'Ada', topics: ['o1'], news: true }))).toEqual([])
  })

  test('a value of another type is refused at that key', () => {
    expect(errorsOf(withInit({ topics: 'o1' }))).toEqual([`INVALID_INIT_VALUES ${INIT}/topics`])
    expect(errorsOf(withInit({ news: 'yes' }))).toEqual([`INVALID_INIT_VALUES ${INIT}/news`])
  })

  test('a key that names no input of the Form is refused', () => {
    expect(errorsOf(withInit({ nickname: 'Ada' }))).toEqual([`INVALID_INIT_VALUES ${INIT}/nickname`])
  })

  test('a PhotoPicker value is refused', () => {
    expect(errorsOf(withInit({ photo: [] }))).toEqual([`NATIVE_COMPONENT_IN_FORM_INIT_VALUES ${INIT}/photo`])
  })

  test('init-values bound to declared object data are fine', () => {
    expect(errorsOf(withInit('${data.defaults}', { data: { defaults: { type: 'object', __example__: { name: 'Ada' } } } }))).toEqual([])
  })

  test("a component's own init-value must have the component's type", () => {
    expect(errorsOf(single([{ type: 'OptIn', name: 'news', label: 'News', 'init-value': 'yes' }]))).toEqual([`INVALID_PROPERTY_TYPE ${FIRST}/init-value`])
    expect(errorsOf(single([{ type: 'OptIn', name: 'news', label: 'News', 'init-value': true }]))).toEqual([])
  })

  test('a PhotoPicker takes no init-value at all', () => {
    expect(errorsOf(single([{ type: 'PhotoPicker', name: 'photo', label: 'Photo', 'init-value': [] }]))).toEqual([`INVALID_PROPERTY_KEY ${FIRST}/init-value`])
  })
})
