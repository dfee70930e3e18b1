import { describe, expect, test } from 'bun:test'
import { type Json, body, chain, completeFooter, end, errorsOf, flow, form, navigateFooter, screen, single, textInput, warningsOf } from './support.ts'


describe('Unique ids (DUPLICATE_SCREEN_IDS)', () => {
  test('a second screen with the same id is refused at its id', () => {
    expect(errorsOf(flow([screen('A', [navigateFooter('B')]), end('B'), end('A')]))).toContain('DUPLICATE_SCREEN_IDS /screens/2/id')
  })

  test('distinct ids: no finding', () => {
    expect(errorsOf(chain(['A', 'B', 'C']))).toEqual([])
  })
})

describe('Id is not SUCCESS, in any case (SCREEN_ID_IS_RESERVED_KEYWORD)', () => {
  for (const id of ['SUCCESS', 'success', 'Success', 'sUcCeSs']) {
    test(`'${id}' is refused`, () => {
      expect(errorsOf(flow([end(id)]))).toEqual(['SCREEN_ID_IS_RESERVED_KEYWORD /screens/0/id'])
    })
  }

  test('an id that only contains SUCCESS is fine', () => {
    expect(errorsOf(flow([end('SUCCESS_PAGE')]))).toEqual([])
  })
})

describe('Ids use letters and _ only (PATTERN_MISMATCH)', () => {
  for (const id of ['STEP_1', 'STEP-ONE', 'STEP ONE', 'ÉTAPE', 'step.one']) {
    test(`'${id}' is refused`, () => {
      expect(errorsOf(flow([end(id)]))).toEqual(['PATTERN_MISMATCH /screens/0/id'])
    })
  }

  for (const id of ['WELCOME', 'order_details', '_Draft_']) {
    test(`'${id}' is accepted`, () => {
      expect(errorsOf(flow([end(id)]))).toEqual([])
    })
  }
})

/** Screen ids made of letters only: A, B, ..., Z, AA, AB, ... */
const letters = (n: number): string => (n < 26 ? String.fromCharCode(65 + n) : letters(Math.floor(n / 26) - 1) + letters(n % 26))

describe('At most 100 screens (MAX_SCREENS_NUMBER)', () => {
  test('100 screens are accepted', () => {
    expect(errorsOf(chain(Array.from({ length: 100 }, (_, i) => `S${letters(i)}`)))).toEqual([])
  })

  test('the 101st screen is refused', () => {
    expect(errorsOf(chain(Array.from({ length: 101 }, (_, i) => `S${letters(i)}`)))).toEqual(['MAX_SCREENS_NUMBER /screens/100'])
  })
})

describe('At most 50 components per screen (MAX_ALLOWED_COMPONENTS_PER_SCREEN)', () => {
  const texts = (n: number) => Array.from({ length: n }, (_, i) => body(`Line ${i}`))

  test('49 texts and a Footer (50 components) are accepted', () => {
    expect(errorsOf(single(texts(49)))).toEqual([])
  })

  test('the 51st component is refused', () => {
    expect(errorsOf(single(texts(50)))).toEqual(['MAX_ALLOWED_COMPONENTS_PER_SCREEN /screens/0/layout/children/50'])
  })

  test('components inside a Form count', () => {
    expect(errorsOf(flow([end('ONLY', [form('form', texts(51))])]))).toEqual(['MAX_ALLOWED_COMPONENTS_PER_SCREEN /screens/0/layout/children/0/children/50'])
  })

  test('only one branch of an If shows, so branches do not add up', () => {
    const document = single([{ type: 'If', condition: '${data.flag}', then: texts(30), else: texts(30) }], '7.0', {
      data: { flag: { type: 'boolean', __example__: true } },
    })
    expect(errorsOf(document)).toEqual([])
  })
})

describe('At least one terminal screen (MISSING_TERMINAL_SCREEN)', () => {
  test('a flow without a terminal screen is refused at /screens', () => {
    const document = flow([screen('A', [navigateFooter('B')]), screen('B', [completeFooter()])])
    expect(errorsOf(document)).toContain('MISSING_TERMINAL_SCREEN /screens')
  })

  test('a flow with a terminal screen: no finding', () => {
    expect(errorsOf(chain(['A', 'B']))).toEqual([])
  })
})

describe('Every terminal screen has a Footer (MISSING_FOOTER_ON_TERMINAL_SCREEN)', () => {
  test('a terminal screen without a Footer is refused at the screen', () => {
    expect(errorsOf(flow([screen('A', [body('Bye')], { terminal: true })]))).toEqual(['MISSING_FOOTER_ON_TERMINAL_SCREEN /screens/0'])
  })

  test('a Footer inside a Form counts', () => {
    expect(errorsOf(flow([screen('A', [form('form', [textInput('name'), completeFooter()])], { terminal: true })]))).toEqual([])
  })

  test('Footers in both branches of an If count', () => {
    const document = flow([
      screen('A', [{ type: 'If', condition: '${data.flag}', then: [completeFooter()], else: [completeFooter()] }], {
        terminal: true,
        data: { flag: { type: 'boolean', __example__: true } },
      }),
    ])
    expect(errorsOf(document)).toEqual([])
  })
})

describe('A non-terminal screen without a Footer only warns (MISSING_FOOTER_ON_NON_TERMINAL_SCREEN)', () => {
  const document = flow([screen('A', [navigateFooter('B')]), screen('B', [body('Our terms')]), end('C')], { routing_model: { A: ['B', 'C'], B: [], C: [] } })

  test('it is a warning at the screen, not an error', () => {
    expect(warningsOf(document)).toContain('MISSING_FOOTER_ON_NON_TERMINAL_SCREEN /screens/1')
    expect(errorsOf(document)).toEqual([])
  })

  test('a non-terminal screen with a Footer raises no warning', () => {
    expect(warningsOf(chain(['A', 'B']))).toEqual([])
  })
})

describe('success only on terminal screens (SUCCESS_ON_NON_TERMINAL_SCREEN)', () => {
  test('success on a non-terminal screen is refused', () => {
    const document = flow([screen('A', [navigateFooter('B')], { success: true }), end('B')])
    expect(errorsOf(document)).toEqual(['SUCCESS_ON_NON_TERMINAL_SCREEN /screens/0/success'])
  })

  test('success on a terminal screen is fine', () => {
    expect(errorsOf(flow([end('A', [], { success: true })]))).toEqual([])
  })
})

describe('At least one terminal screen has success=true (MISSING_SUCCESSFUL_TERMINAL_SCREEN)', () => {
  test('when every terminal screen says success false, the flow is refused', () => {
    expect(errorsOf(flow([end('A', [], { success: false })]))).toEqual(['MISSING_SUCCESSFUL_TERMINAL_SCREEN /screens'])
  })

  test('success defaults to true, so leaving it out is fine', () => {
    expect(errorsOf(flow([end('A')]))).toEqual([])
  })

  test('one successful ending among unsuccessful ones is fine', () => {
    const document = flow(
      [screen('A', [navigateFooter('B'), { type: 'EmbeddedLink', text: 'Give up', 'on-click-action': { name: 'navigate', next: { type: 'screen', name: 'C' }, payload: {} } }]), end('B', [], { success: true }), end('C', [], { success: false })],
    )
    expect(errorsOf(document)).toEqual([])
  })
})

describe('refresh_on_back only with data_api_version (INVALID_REFRESH_ON_BACK)', () => {
  test('refresh_on_back true without an endpoint is refused', () => {
    expect(errorsOf(flow([end('A', [], { refresh_on_back: true })]))).toEqual(['INVALID_REFRESH_ON_BACK /screens/0/refresh_on_back'])
  })

  test('refresh_on_back false without an endpoint is harmless', () => {
    expect(errorsOf(flow([end('A', [], { refresh_on_back: false })]))).toEqual([])
  })

  test('refresh_on_back true with an endpoint is fine', () => {
    expect(errorsOf(flow([end('A', [], { refresh_on_back: true })], { data_api_version: '3.0', routing_model: { A: [] } }))).toEqual([])
  })
})

describe('sensitive names components of the screen (INVALID_SENSITIVE_FIELD)', () => {
  test('a name no component has is refused', () => {
    expect(errorsOf(single([textInput('password')], '7.0', { sensitive: ['pasword'] }))).toEqual(['INVALID_SENSITIVE_FIELD /screens/0/sensitive/0'])
  })

  test('the name of an input is fine', () => {
    expect(errorsOf(single([textInput('password')], '7.0', { sensitive: ['password'] }))).toEqual([])
  })
})

describe('Footer ≤1, counting every If/Switch branch (MORE_THAN_ONE_FOOTER)', () => {
  const data = { data: { flag: { type: 'boolean', __example__: true }, kind: { type: 'string', __example__: 'a' } } }

  test('two Footers on a screen: the second is refused', () => {
    expect(errorsOf(single([completeFooter()]))).toEqual(['MORE_THAN_ONE_FOOTER /screens/0/layout/children/1'])
  })

  test('a Footer in an If plus one outside is refused at the second', () => {
    const document = flow([
      screen('A', [{ type: 'If', condition: '${data.flag}', then: [completeFooter()], else: [completeFooter()] }, completeFooter()], { terminal: true, ...data }),
    ])
    expect(errorsOf(document)).toContain('MORE_THAN_ONE_FOOTER /screens/0/layout/children/1')
  })

  test('a Footer in a Switch case plus one outside is refused', () => {
    const document = flow([screen('A', [{ type: 'Switch', value: '${data.kind}', cases: { a: [completeFooter()] } }, completeFooter()], { terminal: true, ...data })])
    expect(errorsOf(document)).toContain('MORE_THAN_ONE_FOOTER /screens/0/layout/children/1')
  })

  test('one Footer in each branch of an If is one Footer on screen', () => {
    const document = flow([screen('A', [{ type: 'If', condition: '${data.flag}', then: [completeFooter()], else: [completeFooter()] }], { terminal: true, ...data })])
    expect(errorsOf(document)).toEqual([])
  })
})

describe('EmbeddedLink ≤2, Image ≤3, OptIn ≤5 per screen (COMPONENT_TYPE_MAX_NUMBER_PER_SCREEN)', () => {
  const link = (i: number): Json => ({ type: 'EmbeddedLink', text: `Link ${i}`, 'on-click-action': { name: 'data_exchange', payload: {} } })
  const image = (): Json => ({ type: 'Image', src: 'aGk=' })
  const optIn = (i: number): Json => ({ type: 'OptIn', name: `agree_${letters(i)}`, label: 'I agree' })
  const endpoint = { data_api_version: '3.0', routing_model: { ONLY: [] } }
  const cases: [string, (i: number) => Json, number, Json][] = [
    ['EmbeddedLink', link, 2, endpoint],
    ['Image', image, 3, {}],
    ['OptIn', optIn, 5, {}],
  ]
  for (const [type, make, max, extra] of cases) {
    const document = (count: number) => flow([end('ONLY', Array.from({ length: count }, (_, i) => make(i)))], extra)

    test(`${max} ${type} components are accepted`, () => {
      expect(errorsOf(document(max))).toEqual([])
    })

    test(`a ${max + 1}th ${type} is refused at that component`, () => {
      expect(errorsOf(document(max + 1))).toEqual([`COMPONENT_TYPE_MAX_NUMBER_PER_SCREEN /screens/0/layout/children/${max}`])
    })
  }

  test('a PhotoPicker and a DocumentPicker on one screen: the second is refused', () => {
    const document = flow(
      [end('ONLY', [{ type: 'PhotoPicker', name: 'photo', label: 'Photo' }, { type: 'DocumentPicker', name: 'file', label: 'File' }])],
      {},
    )
    expect(errorsOf(document)).toEqual([`COMPONENT_TYPE_MAX_NUMBER_PER_SCREEN /screens/0/layout/children/1`])
  })

  test('a third ImageCarousel is refused', () => {
    const carousel = { type: 'ImageCarousel', images: [{ src: 'aGk=', 'alt-text': 'Hi' }] }
    expect(errorsOf(single([carousel, carousel], '7.1'))).toEqual([])
    expect(errorsOf(single([carousel, carousel, carousel], '7.1'))).toEqual([`COMPONENT_TYPE_MAX_NUMBER_PER_SCREEN /screens/0/layout/children/2`])
  })

  test('the limit counts the fullest branch, not all branches together', () => {
    const links = [link(1), link(2)]
    const document = flow(
      [end('ONLY', [{ type: 'If', condition: '${data.flag}', then: links, else: links }], { data: { flag: { type: 'boolean', __example__: true } } })],
      endpoint,
    )
    expect(errorsOf(document)).toEqual([])
    expect(errorsOf(flow([end('ONLY', [link(0), { type: 'If', condition: '${data.flag}', then: links, else: [body('none')] }], { data: { flag: { type: 'boolean', __example__: true } } })], endpoint))).toEqual([
      'COMPONENT_TYPE_MAX_NUMBER_PER_SCREEN /screens/0/layout/children/1/then/1',
    ])
  })
})
