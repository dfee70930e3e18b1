import { describe, expect, test } from 'bun:test'
import { validateMetaFlow } from '../../../../server/flows/validate/meta.ts'
import { SUPPORTED_VERSIONS } from '../../../../server/flows/validate/meta/versions.ts'
import { type Json, body, end, errorsOf, flow, form, options, screen, single, textInput } from './support.ts'

const FIRST = '/screens/0/layout/children/0'

describe('Valid JSON (INVALID_FLOW_JSON)', () => {
  for (const [label, value] of [
    ['null', null],
    ['an array', [{ version: '7.0' }]],
    ['a string', '{"version": "7.0"}'],
    ['a number', 7],
    ['undefined', undefined],
  ] as const) {
    test(`a definition that is ${label} is refused at the root`, () => {
      const report = validateMetaFlow(value)
      expect(report.errors).toEqual([{ path: '', code: 'INVALID_FLOW_JSON', message: expect.any(String) }])
      expect(report.warnings).toEqual([])
    })
  }

  test('an object definition is read as Flow JSON', () => {
    expect(errorsOf(single([body('Hello')]))).toEqual([])
  })
})

describe('Documents are at most 10 MB (FLOW_JSON_TOO_LARGE)', () => {
  const withExample = (example: string) =>
    flow([end('ONLY', [body('Hi')], { data: { blob: { type: 'string', __example__: example } } })])

  test('a document over 10 MB of JSON is refused at the root', () => {
    expect(errorsOf(withExample('x'.repeat(10 * 1024 * 1024)))).toEqual(['FLOW_JSON_TOO_LARGE '])
  })

  test('the size is counted in bytes: 6 million two-byte characters are over the limit', () => {
    expect(errorsOf(withExample('é'.repeat(6_000_000)))).toEqual(['FLOW_JSON_TOO_LARGE '])
  })

  test('a document just under 10 MB is accepted', () => {
    expect(errorsOf(withExample('x'.repeat(10 * 1024 * 1024 - 1000)))).toEqual([])
  })
})

describe('version present and supported (MISSING_/INVALID_/UNSUPPORTED_FLOW_JSON_VERSION)', () => {
  test('a document without a version is refused at /version', () => {
    const document = single([body('Hi')])
    delete document.version
    expect(errorsOf(document)).toContain('MISSING_FLOW_JSON_VERSION /version')
  })

  for (const version of [7, '7', 'seven', '7.0.1', '']) {
    test(`version ${JSON.stringify(version)} is not a version and is refused`, () => {
      expect(errorsOf({ ...single([body('Hi')]), version })).toEqual(['INVALID_FLOW_JSON_VERSION /version'])
    })
  }

  for (const version of ['1.0', '2.0', '5.2', '8.0']) {
    test(`version ${version} is well formed but unsupported`, () => {
      expect(errorsOf(single([body('Hi')], version))).toEqual(['UNSUPPORTED_FLOW_JSON_VERSION /version'])
    })
  }

  for (const version of SUPPORTED_VERSIONS) {
    test(`version ${version} is supported`, () => {
      expect(errorsOf(flow([end('ONLY', [form('form', [textInput('name')])])], {}, version))).toEqual([])
    })
  }
})

describe('No unknown keys (INVALID_PROPERTY_KEY)', () => {
  test('an unknown top-level key is refused', () => {
    expect(errorsOf({ ...single([body('Hi')]), colour: 'red' })).toEqual(['INVALID_PROPERTY_KEY /colour'])
  })

  test('an unknown screen key is refused', () => {
    expect(errorsOf(single([body('Hi')], '7.0', { colour: 'red' }))).toEqual(['INVALID_PROPERTY_KEY /screens/0/colour'])
  })

  test('an unknown layout key is refused', () => {
    const document = single([body('Hi')])
    ;((document.screens as Json[])[0]?.layout as Json).padding = 4
    expect(errorsOf(document)).toEqual(['INVALID_PROPERTY_KEY /screens/0/layout/padding'])
  })

  test('an unknown component property is refused, with a hint for a near miss', () => {
    const report = validateMetaFlow(single([textInput('name', { 'helper_text': 'Your name' })]))
    expect(report.errors).toEqual([{ path: `${FIRST}/helper_text`, code: 'INVALID_PROPERTY_KEY', message: expect.stringContaining("Did you mean 'helper-text'?") }])
  })

  test('an unknown key in a data-source option is refused', () => {
    const document = single([{ type: 'Dropdown', name: 'pick', label: 'Pick', 'data-source': [{ id: 'a', title: 'A', price: 3 }] }])
    expect(errorsOf(document)).toEqual([`INVALID_PROPERTY_KEY ${FIRST}/data-source/0/price`])
  })

  test('an unknown key in an action is refused', () => {
    const document = flow([
      end('ONLY', [], {}),
    ])
    const footer = ((document.screens as Json[])[0]?.layout as { children: Json[] }).children[0] as Json
    ;(footer['on-click-action'] as Json).url = 'https://example.com'
    expect(errorsOf(document)).toEqual([`INVALID_PROPERTY_KEY ${FIRST}/on-click-action/url`])
  })

  test('data_channel_uri is allowed before 3.0', () => {
    expect(errorsOf({ ...flow([end('ONLY', [form('form', [textInput('name')])])], {}, '2.1'), data_channel_uri: 'https://example.com' })).toEqual([])
  })

  test('data_channel_uri is refused from 3.0, where the endpoint is configured elsewhere', () => {
    expect(errorsOf({ ...single([body('Hi')], '3.0'), data_channel_uri: 'https://example.com' })).toEqual(['INVALID_PROPERTY_KEY /data_channel_uri'])
  })

  test('only known keys: no finding', () => {
    expect(errorsOf(single([textInput('name', { 'helper-text': 'Your name', 'input-type': 'text', required: true })]))).toEqual([])
  })
})

describe('Correct types and enums (INVALID_PROPERTY_TYPE, INVALID_ENUM_VALUE)', () => {
  test('a label that is not a string is refused', () => {
    expect(errorsOf(single([textInput('name', { label: 42 })]))).toEqual([`INVALID_PROPERTY_TYPE ${FIRST}/label`])
  })

  test('a flag that is a string is refused', () => {
    expect(errorsOf(single([textInput('name', { required: 'yes' })]))).toEqual([`INVALID_PROPERTY_TYPE ${FIRST}/required`])
  })

  test('a fraction where a whole number belongs is refused', () => {
    expect(errorsOf(single([textInput('name', { 'max-chars': 1.5 })]))).toEqual([`INVALID_PROPERTY_TYPE ${FIRST}/max-chars`])
  })

  test('screens that are not an array are refused', () => {
    expect(errorsOf({ version: '7.0', screens: {} })).toEqual(['INVALID_PROPERTY_TYPE /screens'])
  })

  test('a component that is not an object is refused', () => {
    expect(errorsOf(single(['Hello']))).toEqual([`INVALID_PROPERTY_TYPE ${FIRST}`])
  })

  test('a value outside an enum is refused', () => {
    expect(errorsOf(single([textInput('name', { 'input-type': 'url' })]))).toEqual([`INVALID_ENUM_VALUE ${FIRST}/input-type`])
  })

  test('a layout type other than SingleColumnLayout is refused', () => {
    const document = single([body('Hi')])
    ;((document.screens as Json[])[0]?.layout as Json).type = 'TwoColumnLayout'
    expect(errorsOf(document)).toEqual(['INVALID_ENUM_VALUE /screens/0/layout/type'])
  })

  test('an unknown component type is refused at its type', () => {
    expect(errorsOf(single([{ type: 'Carousel' }]))).toEqual([`INVALID_ENUM_VALUE ${FIRST}/type`])
  })

  test('a data_api_version other than 3.0 is refused', () => {
    const document = flow([end('ONLY')], { data_api_version: '2.0', routing_model: { ONLY: [] } })
    expect(errorsOf(document)).toEqual(['INVALID_ENUM_VALUE /data_api_version'])
  })

  test('values of the right types and enums: no finding', () => {
    expect(errorsOf(single([textInput('name', { label: 'Name', required: true, 'max-chars': 20, 'input-type': 'email' })]))).toEqual([])
  })
})

describe('Required properties present (MISSING_REQUIRED_TYPE_PROPERTY)', () => {
  test('a component without a type is refused at its type', () => {
    expect(errorsOf(single([{ text: 'Hi' }]))).toEqual([`MISSING_REQUIRED_TYPE_PROPERTY ${FIRST}/type`])
  })

  test('a TextInput without a label is refused at the missing label', () => {
    expect(errorsOf(single([{ type: 'TextInput', name: 'name' }]))).toEqual([`MISSING_REQUIRED_TYPE_PROPERTY ${FIRST}/label`])
  })

  test('a document without screens is refused at /screens', () => {
    expect(errorsOf({ version: '7.0' })).toEqual(['MISSING_REQUIRED_TYPE_PROPERTY /screens'])
  })

  test('a screen without a layout is refused at the missing layout', () => {
    const document = flow([end('ONLY'), { id: 'BARE' }])
    expect(errorsOf(document)).toContain('MISSING_REQUIRED_TYPE_PROPERTY /screens/1/layout')
  })

  test('an action without a name is refused', () => {
    expect(errorsOf(single([{ type: 'EmbeddedLink', text: 'More', 'on-click-action': { payload: {} } }]))).toEqual([
      `MISSING_REQUIRED_TYPE_PROPERTY ${FIRST}/on-click-action/name`,
    ])
  })

  test('a CheckboxGroup label is optional in 2.1 and required from 4.0', () => {
    const checkbox = { type: 'CheckboxGroup', name: 'pick', 'data-source': options(2) }
    expect(errorsOf(flow([end('ONLY', [form('form', [checkbox])])], {}, '2.1'))).toEqual([])
    expect(errorsOf(single([checkbox], '4.0'))).toEqual([`MISSING_REQUIRED_TYPE_PROPERTY ${FIRST}/label`])
  })
})

describe('At least 1 screen; ids non-empty (MIN_ITEMS_REQUIRED, MIN_CHARS_REQUIRED)', () => {
  test('no screens at all is refused at /screens', () => {
    expect(errorsOf({ version: '7.0', screens: [] })).toEqual(['MIN_ITEMS_REQUIRED /screens'])
  })

  test('an empty screen id is refused', () => {
    expect(errorsOf(flow([end('')]))).toContain('MIN_CHARS_REQUIRED /screens/0/id')
  })

  test('an empty layout is refused', () => {
    expect(errorsOf(flow([end('ONLY'), screen('EMPTY', [])]))).toContain('MIN_ITEMS_REQUIRED /screens/1/layout/children')
  })

  test('one screen with an id: no finding', () => {
    expect(errorsOf(flow([end('A')]))).toEqual([])
  })
})

/** A screen-level data model every sample below may bind to. */
const DATA = { flag: { type: 'boolean', __example__: true }, name: { type: 'string', __example__: 'Ada' } }

const COMPONENT_SINCE: [string, string, Json][] = [
  ['If', '4.0', { type: 'If', condition: '${data.flag}', then: [body('Yes')], else: [body('No')] }],
  ['Switch', '4.0', { type: 'Switch', value: '${data.name}', cases: { Ada: [body('Hi Ada')] } }],
  ['PhotoPicker', '4.0', { type: 'PhotoPicker', name: 'photo', label: 'Photo' }],
  ['DocumentPicker', '4.0', { type: 'DocumentPicker', name: 'document', label: 'Document' }],
  ['RichText', '5.1', { type: 'RichText', text: ['# Terms', 'Be kind.'] }],
  ['CalendarPicker', '6.1', { type: 'CalendarPicker', name: 'date', label: 'Date' }],
  ['NavigationList', '6.2', { type: 'NavigationList', name: 'menu', 'list-items': [{ id: 'a', 'main-content': { title: 'A' } }] }],
  ['ChipsSelector', '6.3', { type: 'ChipsSelector', name: 'chips', label: 'Pick', 'data-source': options(3) }],
  ['ImageCarousel', '7.1', { type: 'ImageCarousel', images: [{ src: 'aGk=', 'alt-text': 'A picture' }] }],
]

const before = (version: string) => SUPPORTED_VERSIONS[SUPPORTED_VERSIONS.indexOf(version as (typeof SUPPORTED_VERSIONS)[number]) - 1] as string

describe('Components gated by version (REQUIRES_NEWER_FLOW_JSON_VERSION)', () => {
  for (const [type, since, component] of COMPONENT_SINCE) {
    test(`${type} is accepted from ${since}`, () => {
      expect(errorsOf(single([component], since, { data: DATA }))).toEqual([])
    })
    test(`${type} is refused in ${before(since)}`, () => {
      expect(errorsOf(single([component], before(since), { data: DATA }))).toContain(`REQUIRES_NEWER_FLOW_JSON_VERSION ${FIRST}/type`)
    })
  }
})

describe('Features gated by version (REQUIRES_NEWER_FLOW_JSON_VERSION)', () => {
  const cases: [string, string, Json, string][] = [
    ['markdown on TextBody', '5.1', { type: 'TextBody', text: '*Hi*', markdown: true }, `${FIRST}/markdown`],
    ['a list of texts in TextBody', '5.1', { type: 'TextBody', text: ['Hi', 'there'] }, `${FIRST}/text`],
    ['init-value on an input', '4.0', textInput('name', { 'init-value': 'Ada' }), `${FIRST}/init-value`],
    ['a TextInput pattern', '6.2', textInput('code', { pattern: '^[0-9]+$' }), `${FIRST}/pattern`],
    ['label-variant', '7.0', textInput('name', { 'label-variant': 'large' }), `${FIRST}/label-variant`],
    ['images in options', '5.0', { type: 'RadioButtonsGroup', name: 'pick', label: 'Pick', 'data-source': options(2, { image: 'aGk=' }) }, `${FIRST}/data-source/0/image`],
    ['a backtick expression', '6.0', body("`'Hello ' ${data.name}`"), `${FIRST}/text`],
    ['the open_url action', '6.0', { type: 'EmbeddedLink', text: 'Site', 'on-click-action': { name: 'open_url', url: 'https://example.com' } }, `${FIRST}/on-click-action/name`],
    [
      'the update_data action',
      '6.0',
      { type: 'Dropdown', name: 'pick', label: 'Pick', 'data-source': options(2), 'on-select-action': { name: 'update_data', payload: { flag: false } } },
      `${FIRST}/on-select-action/name`,
    ],
  ]
  for (const [feature, since, component, path] of cases) {
    test(`${feature} is accepted from ${since}`, () => {
      expect(errorsOf(single([component], since, { data: DATA }))).toEqual([])
    })
    test(`${feature} is refused in ${before(since)}`, () => {
      expect(errorsOf(single([component], before(since), { data: DATA }))).toContain(`REQUIRES_NEWER_FLOW_JSON_VERSION ${path}`)
    })
  }

  test('sensitive is accepted from 5.1 and refused in 5.0', () => {
    const at = (version: string) => single([textInput('secret')], version, { sensitive: ['secret'] })
    expect(errorsOf(at('5.1'))).toEqual([])
    expect(errorsOf(at('5.0'))).toEqual(['REQUIRES_NEWER_FLOW_JSON_VERSION /screens/0/sensitive'])
  })

  test('a binding to another screen is accepted from 4.0 and refused in 3.1', () => {
    const at = (version: string) =>
      flow(
        [
          screen('FIRST', [form('form', [textInput('name'), { type: 'Footer', label: 'Next', 'on-click-action': { name: 'navigate', next: { type: 'screen', name: 'LAST' }, payload: {} } }])]),
          end('LAST', [{ type: 'TextBody', text: '${screen.FIRST.form.name}' }]),
        ],
        {},
        version,
      )
    expect(errorsOf(at('4.0'))).toEqual([])
    expect(errorsOf(at('3.1'))).toContain('REQUIRES_NEWER_FLOW_JSON_VERSION /screens/1/layout/children/0/text')
  })
})

describe('From 6.0 blank strings are not allowed (MIN_CHARS_REQUIRED)', () => {
  test('a blank text in 6.0 is refused', () => {
    expect(errorsOf(single([body('   ')], '6.0'))).toEqual([`MIN_CHARS_REQUIRED ${FIRST}/text`])
  })

  test('an empty helper text in 7.0 is refused', () => {
    expect(errorsOf(single([textInput('name', { 'helper-text': '' })], '7.0'))).toEqual([`MIN_CHARS_REQUIRED ${FIRST}/helper-text`])
  })

  test('an empty helper text before 6.0 is accepted, as in the provider samples', () => {
    expect(errorsOf(single([textInput('name', { 'helper-text': '' })], '5.1'))).toEqual([])
  })

  test('payload values may be empty strings', () => {
    expect(errorsOf(flow([end('ONLY')]))).toEqual([])
    const document = flow([screen('ONLY', [{ type: 'Footer', label: 'Done', 'on-click-action': { name: 'complete', payload: { note: '' } } }], { terminal: true })])
    expect(errorsOf(document)).toEqual([])
  })
})
