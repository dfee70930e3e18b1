import { describe, expect, test } from 'bun:test'
import { type Json, body, completeFooter, errorsOf, flow, screen, single, textInput } from './support.ts'

const FIRST = '/screens/0/layout/children/0'
const DATA = {
  data: {
    flag: { type: 'boolean', __example__: true },
    count: { type: 'number', __example__: 2 },
    kind: { type: 'string', __example__: 'a' },
  },
}
const ifOf = (condition: unknown, then: unknown[] = [body('Yes')], otherwise?: unknown[]): Json =>
  otherwise === undefined ? { type: 'If', condition, then } : { type: 'If', condition, then, else: otherwise }
const withData = (children: unknown[]) => single(children, '7.0', DATA)
/** A terminal screen whose Footers come only from `children`. */
const terminalWith = (children: unknown[]) => flow([screen('ONLY', children, { terminal: true, ...DATA })])

describe('then and cases non-empty (MIN_ITEMS_REQUIRED, EMPTY_SWITCH_CASES)', () => {
  test('an If with an empty then is refused at then', () => {
    expect(errorsOf(withData([ifOf('${data.flag}', [])]))).toEqual([`MIN_ITEMS_REQUIRED ${FIRST}/then`])
  })

  test('a Switch without cases is refused at cases', () => {
    expect(errorsOf(withData([{ type: 'Switch', value: '${data.kind}', cases: {} }]))).toEqual([`EMPTY_SWITCH_CASES ${FIRST}/cases`])
  })

  test('an empty case is refused at that case', () => {
    expect(errorsOf(withData([{ type: 'Switch', value: '${data.kind}', cases: { a: [body('A')], b: [] } }]))).toEqual([`MIN_ITEMS_REQUIRED ${FIRST}/cases/b`])
  })

  test('non-empty then and cases are fine', () => {
    expect(errorsOf(withData([ifOf('${data.flag}'), { type: 'Switch', value: '${data.kind}', cases: { a: [body('A')] } }]))).toEqual([])
  })
})

describe('If nests ≤3 deep (MAXIMUM_IF_NESTING)', () => {
  const nested = (depth: number): Json => (depth === 1 ? ifOf('${data.flag}') : ifOf('${data.flag}', [nested(depth - 1)]))

  test('three nested Ifs are fine', () => {
    expect(errorsOf(withData([nested(3)]))).toEqual([])
  })

  test('a fourth If inside them is refused', () => {
    expect(errorsOf(withData([nested(4)]))).toEqual([`MAXIMUM_IF_NESTING ${FIRST}/then/0/then/0/then/0`])
  })
})

describe('condition has a dynamic operand, is boolean, and never compares literal with literal (INVALID_IF_CONDITION)', () => {
  for (const condition of ['${data.flag}', '!${data.flag}', '${data.count} > 1', "(${data.kind} == 'a') || ${data.flag}", '${data.count} + 1 >= 3', '${form.agree}']) {
    test(`${condition} is accepted`, () => {
      expect(errorsOf(withData([{ type: 'OptIn', name: 'agree', label: 'I agree' }, ifOf(condition)]))).toEqual([])
    })
  }

  const refused: [string, string][] = [
    ['true', 'only fixed values'],
    ["'a' == 'a'", 'only fixed values'],
    ['${data.flag} && (1 == 1)', 'literal compared with literal'],
    ['${data.count}', 'a number, not a boolean'],
    ['${data.count} * 2', 'a number, not a boolean'],
    ['${form.name}', 'a text input, not a boolean'],
    ['${data.flag} &&', 'a missing operand'],
    ['(${data.flag}', 'an unclosed parenthesis'],
    ['${data.flag} ${data.flag}', 'two values without an operator'],
    ['', 'empty'],
  ]
  for (const [condition, why] of refused) {
    test(`${JSON.stringify(condition)} is refused (${why})`, () => {
      expect(errorsOf(withData([textInput('name'), ifOf(condition)]))).toEqual(['INVALID_IF_CONDITION /screens/0/layout/children/1/condition'])
    })
  }

  test('bindings in a condition are resolved like any other', () => {
    expect(errorsOf(withData([ifOf('${data.missing}')]))).toEqual([`INVALID_SCREEN_DYNAMIC_DATA ${FIRST}/condition`])
  })
})

describe('A Footer in an If sits at the first level, appears in both branches, and none sits outside (MISSING_FOOTER_IN_IF_ELSE_BRANCHES)', () => {
  test('a Footer in both branches is fine', () => {
    expect(errorsOf(terminalWith([ifOf('${data.flag}', [completeFooter()], [completeFooter()])]))).toEqual([])
  })

  test('a Footer only in then is refused at else', () => {
    expect(errorsOf(terminalWith([ifOf('${data.flag}', [completeFooter()], [body('No')])]))).toEqual([`MISSING_FOOTER_IN_IF_ELSE_BRANCHES ${FIRST}/else`])
  })

  test('a Footer in then without any else is refused at else', () => {
    expect(errorsOf(terminalWith([ifOf('${data.flag}', [completeFooter()])]))).toEqual([`MISSING_FOOTER_IN_IF_ELSE_BRANCHES ${FIRST}/else`])
  })

  test('a Footer only in else is refused at then', () => {
    expect(errorsOf(terminalWith([ifOf('${data.flag}', [body('Yes')], [completeFooter()])]))).toEqual([`MISSING_FOOTER_IN_IF_ELSE_BRANCHES ${FIRST}/then`])
  })

  test('a Footer in a nested If is refused there (INVALID_COMPONENT_PLACEMENT)', () => {
    const inner = ifOf('${data.flag}', [completeFooter()], [completeFooter()])
    expect(errorsOf(terminalWith([ifOf('${data.flag}', [inner], [completeFooter()])]))).toEqual([
      `INVALID_COMPONENT_PLACEMENT ${FIRST}/then/0/then/0`,
      `INVALID_COMPONENT_PLACEMENT ${FIRST}/then/0/else/0`,
    ])
  })

  test('a Footer outside as well is one Footer too many (MORE_THAN_ONE_FOOTER)', () => {
    expect(errorsOf(terminalWith([ifOf('${data.flag}', [completeFooter()], [completeFooter()]), completeFooter()]))).toEqual([
      'MORE_THAN_ONE_FOOTER /screens/0/layout/children/1',
    ])
  })
})

describe('A Switch has a Footer in all cases or none (MISSING_FOOTER_IN_SWITCH_BRANCHES)', () => {
  const switchOf = (cases: Record<string, unknown[]>): Json => ({ type: 'Switch', value: '${data.kind}', cases })

  test('a Footer in every case is fine', () => {
    expect(errorsOf(terminalWith([switchOf({ a: [completeFooter()], b: [completeFooter()] })]))).toEqual([])
  })

  test('a Footer in no case is fine', () => {
    expect(errorsOf(terminalWith([switchOf({ a: [body('A')], b: [body('B')] }), completeFooter()]))).toEqual([])
  })

  test('a case without the Footer the others have is refused at that case', () => {
    expect(errorsOf(terminalWith([switchOf({ a: [completeFooter()], b: [body('B')], c: [completeFooter()] })]))).toEqual([
      `MISSING_FOOTER_IN_SWITCH_BRANCHES ${FIRST}/cases/b`,
    ])
  })
})

describe('A Switch value is one binding (INVALID_SWITCH_VALUE)', () => {
  test('a binding is fine', () => {
    expect(errorsOf(withData([{ type: 'Switch', value: '${data.kind}', cases: { a: [body('A')] } }]))).toEqual([])
  })

  for (const value of ['a', 'kind: ${data.kind}', 42]) {
    test(`${JSON.stringify(value)} is refused`, () => {
      expect(errorsOf(withData([{ type: 'Switch', value, cases: { a: [body('A')] } }]))).toEqual([`INVALID_SWITCH_VALUE ${FIRST}/value`])
    })
  }
})
