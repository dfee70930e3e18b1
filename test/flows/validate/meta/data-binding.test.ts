import { describe, expect, test } from 'bun:test'
import { type Json, body, completeFooter, end, errorsOf, flow, form, navigateFooter, screen, single, textInput } from './support.ts'

const FIRST = '/screens/0/layout/children/0'

const DATA = {
  name: { type: 'string', __example__: 'Ada' },
  count: { type: 'number', __example__: 3 },
  shown: { type: 'boolean', __example__: true },
  user: { type: 'object', properties: { email: { type: 'string' } }, __example__: { email: 'ada@example.com' } },
  choices: { type: 'array', items: { type: 'object', properties: { id: { type: 'string' }, title: { type: 'string' } } }, __example__: [{ id: 'a', title: 'A' }] },
}
const withData = (children: unknown[], data: Json = DATA, version = '7.0') => single(children, version, { data })

describe('Every ${data.x} is declared with a matching type (INVALID_SCREEN_DYNAMIC_DATA)', () => {
  test('declared fields of matching types are fine', () => {
    const document = withData([
      body('${data.name}'),
      { type: 'TextBody', text: 'Shown', visible: '${data.shown}' },
      { type: 'Dropdown', name: 'pick', label: 'Pick', 'data-source': '${data.choices}' },
      body('${data.user.email}'),
    ])
    expect(errorsOf(document)).toEqual([])
  })

  test('an undeclared field is refused where it is bound', () => {
    expect(errorsOf(withData([body('${data.nickname}')]))).toEqual([`INVALID_SCREEN_DYNAMIC_DATA ${FIRST}/text`])
  })

  test('a screen without data declares nothing', () => {
    expect(errorsOf(single([body('${data.name}')]))).toEqual([`INVALID_SCREEN_DYNAMIC_DATA ${FIRST}/text`])
  })

  test('a number bound to a text property is refused', () => {
    expect(errorsOf(withData([body('${data.count}')]))).toEqual([`INVALID_SCREEN_DYNAMIC_DATA ${FIRST}/text`])
  })

  test('a string bound to visible is refused', () => {
    expect(errorsOf(withData([{ type: 'TextBody', text: 'Hi', visible: '${data.name}' }]))).toEqual([`INVALID_SCREEN_DYNAMIC_DATA ${FIRST}/visible`])
  })

  test('a property that is not declared below an object is refused', () => {
    expect(errorsOf(withData([body('${data.user.phone}')]))).toEqual([`INVALID_SCREEN_DYNAMIC_DATA ${FIRST}/text`])
  })

  test('reading a property of a number is refused', () => {
    expect(errorsOf(withData([body('${data.count.value}')]))).toEqual([`INVALID_SCREEN_DYNAMIC_DATA ${FIRST}/text`])
  })

  test('a binding Flow JSON does not know is refused', () => {
    expect(errorsOf(withData([body('${user.name}')]))).toEqual([`INVALID_SCREEN_DYNAMIC_DATA ${FIRST}/text`])
  })

  test('bindings inside a data-source option are checked too', () => {
    expect(errorsOf(withData([{ type: 'Dropdown', name: 'pick', label: 'Pick', 'data-source': [{ id: 'a', title: '${data.title}' }] }]))).toEqual([
      `INVALID_SCREEN_DYNAMIC_DATA ${FIRST}/data-source/0/title`,
    ])
  })
})

describe('Every data field has a string type and a typed __example__, __example__ only at the top level, arrays have items (INVALID_SCREEN_DATA)', () => {
  const declare = (field: unknown) => single([body('Hi')], '7.0', { data: { field } })
  const FIELD = '/screens/0/data/field'

  test('well-formed declarations are fine', () => {
    expect(errorsOf(single([body('Hi')], '7.0', { data: DATA }))).toEqual([])
  })

  test('a field without a type is refused at its type', () => {
    expect(errorsOf(declare({ __example__: 'x' }))).toEqual([`INVALID_SCREEN_DATA ${FIELD}/type`])
  })

  test('a type that is not a string is refused', () => {
    expect(errorsOf(declare({ type: ['string'], __example__: 'x' }))).toEqual([`INVALID_SCREEN_DATA ${FIELD}/type`])
  })

  test('a type Flow JSON does not know is refused', () => {
    expect(errorsOf(declare({ type: 'date', __example__: '2024-01-01' }))).toEqual([`INVALID_SCREEN_DATA ${FIELD}/type`])
  })

  test('a field without __example__ is refused', () => {
    expect(errorsOf(declare({ type: 'string' }))).toEqual([`INVALID_SCREEN_DATA ${FIELD}/__example__`])
  })

  test('an __example__ of another type is refused', () => {
    expect(errorsOf(declare({ type: 'number', __example__: '3' }))).toEqual([`INVALID_SCREEN_DATA ${FIELD}/__example__`])
  })

  test('an array element of another type is refused at that element', () => {
    expect(errorsOf(declare({ type: 'array', items: { type: 'string' }, __example__: ['a', 2] }))).toEqual([`INVALID_SCREEN_DATA ${FIELD}/__example__/1`])
  })

  test('an array without items is refused', () => {
    expect(errorsOf(declare({ type: 'array', __example__: [] }))).toEqual([`INVALID_SCREEN_DATA ${FIELD}/items`])
  })

  test('__example__ below the top level is refused', () => {
    expect(errorsOf(declare({ type: 'array', items: { type: 'string', __example__: 'a' }, __example__: ['a'] }))).toEqual([`INVALID_SCREEN_DATA ${FIELD}/items/__example__`])
    expect(errorsOf(declare({ type: 'object', properties: { a: { type: 'string', __example__: 'a' } }, __example__: { a: 'a' } }))).toEqual([
      `INVALID_SCREEN_DATA ${FIELD}/properties/a/__example__`,
    ])
  })

  test('a field that is not an object is refused', () => {
    expect(errorsOf(declare('string'))).toEqual([`INVALID_SCREEN_DATA ${FIELD}`])
  })

  test('data that is not an object is refused', () => {
    expect(errorsOf(single([body('Hi')], '7.0', { data: [] }))).toEqual(['INVALID_PROPERTY_TYPE /screens/0/data'])
  })
})

describe('Every ${form.x} names an input on the screen, never the Form itself (INVALID_ON_CLICK_ACTION_PAYLOAD)', () => {
  const withForm = (payload: Json) => flow([screen('A', [form('details', [textInput('email'), completeFooter(payload)])], { terminal: true })])
  const PAYLOAD = '/screens/0/layout/children/0/children/1/on-click-action/payload'

  test('an input of the screen is fine', () => {
    expect(errorsOf(withForm({ email: '${form.email}' }))).toEqual([])
  })

  test('a name no input has is refused at that value', () => {
    expect(errorsOf(withForm({ email: '${form.mail}' }))).toEqual([`INVALID_ON_CLICK_ACTION_PAYLOAD ${PAYLOAD}/email`])
  })

  test('the Form itself is refused', () => {
    expect(errorsOf(withForm({ all: '${form.details}' }))).toEqual([`INVALID_ON_CLICK_ACTION_PAYLOAD ${PAYLOAD}/all`])
  })

  test('an input on another screen is not an input of this one', () => {
    const document = flow([screen('A', [textInput('email'), navigateFooter('B')]), end('B', [body('${form.email}')])])
    expect(errorsOf(document)).toEqual(['INVALID_ON_CLICK_ACTION_PAYLOAD /screens/1/layout/children/0/text'])
  })

  test('nested payload values are read too', () => {
    expect(errorsOf(withForm({ contact: { email: '${form.mail}' } }))).toEqual([`INVALID_ON_CLICK_ACTION_PAYLOAD ${PAYLOAD}/contact/email`])
  })
})

describe('In ${screen.S…}, S exists and is not the current screen (INVALID_SCREEN_REFERENCE)', () => {
  const twoScreens = (binding: string) =>
    flow(
      [
        screen('FIRST', [textInput('name'), navigateFooter('LAST')], { data: { greeting: { type: 'string', __example__: 'Hi' } } }),
        end('LAST', [body(binding)]),
      ],
      {},
      '4.0',
    )
  const TEXT = '/screens/1/layout/children/0/text'

  test('form and data of an earlier screen are fine', () => {
    expect(errorsOf(twoScreens('${screen.FIRST.form.name}'))).toEqual([])
    expect(errorsOf(twoScreens('${screen.FIRST.data.greeting}'))).toEqual([])
  })

  test('a screen that does not exist is refused', () => {
    expect(errorsOf(twoScreens('${screen.START.form.name}'))).toEqual([`INVALID_SCREEN_REFERENCE ${TEXT}`])
  })

  test('the current screen is refused', () => {
    expect(errorsOf(twoScreens('${screen.LAST.form.name}'))).toEqual([`INVALID_SCREEN_REFERENCE ${TEXT}`])
  })

  test('an undeclared field of that screen is refused', () => {
    expect(errorsOf(twoScreens('${screen.FIRST.data.farewell}'))).toEqual([`INVALID_SCREEN_DYNAMIC_DATA ${TEXT}`])
  })

  test('an input that screen does not have is refused', () => {
    expect(errorsOf(twoScreens('${screen.FIRST.form.email}'))).toEqual([`INVALID_ON_CLICK_ACTION_PAYLOAD ${TEXT}`])
  })
})

describe('No property mixes static and dynamic values (MIXED_STATIC_AND_DYNAMIC_VALUE)', () => {
  test('text around a binding is refused', () => {
    expect(errorsOf(withData([body('Hello ${data.name}!')]))).toEqual([`MIXED_STATIC_AND_DYNAMIC_VALUE ${FIRST}/text`])
  })

  test('two bindings in one string are refused', () => {
    expect(errorsOf(withData([body('${data.name}${data.name}')]))).toEqual([`MIXED_STATIC_AND_DYNAMIC_VALUE ${FIRST}/text`])
  })

  test('a mixed payload value is refused', () => {
    const document = flow([screen('A', [textInput('code'), completeFooter({ ref: 'order-${form.code}' })], { terminal: true })])
    expect(errorsOf(document)).toEqual(['MIXED_STATIC_AND_DYNAMIC_VALUE /screens/0/layout/children/1/on-click-action/payload/ref'])
  })

  test('a backtick expression joins them instead, from 6.0', () => {
    expect(errorsOf(withData([body("`'Hello ' ${data.name} '!'`")], DATA, '6.0'))).toEqual([])
  })

  test('a binding alone, or plain text, is fine', () => {
    expect(errorsOf(withData([body('${data.name}'), body('Hello!')]))).toEqual([])
  })
})

describe('Backtick expressions are well formed (INVALID_EXPRESSION)', () => {
  for (const expression of ["`'Hello ${data.name}`", '`${data.count} +`', '`(${data.count} + 1`', '`${data.count} + 1)`', '`name`', '`()`', '`${data.count} # 2`']) {
    test(`${expression} is refused`, () => {
      expect(errorsOf(withData([body(expression)]))).toEqual([`INVALID_EXPRESSION ${FIRST}/text`])
    })
  }

  for (const expression of ["`'Total: ' (${data.count} * 2)`", "`${data.name} ' has ' ${data.count} ' items'`", '`-${data.count} % 3`']) {
    test(`${expression} is accepted`, () => {
      expect(errorsOf(withData([body(expression)]))).toEqual([])
    })
  }

  test('before 6.0 backticks around plain text are just text', () => {
    expect(errorsOf(withData([body('`npm install`')], DATA, '5.1'))).toEqual([])
  })

  test('from 6.0 backticks make an expression, so plain words in them are refused', () => {
    expect(errorsOf(withData([body('`npm install`')], DATA, '6.0'))).toEqual([`INVALID_EXPRESSION ${FIRST}/text`])
  })

  test('bindings inside an expression are resolved too', () => {
    expect(errorsOf(withData([body("`'Hi ' ${data.nickname}`")]))).toEqual([`INVALID_SCREEN_DYNAMIC_DATA ${FIRST}/text`])
  })
})
