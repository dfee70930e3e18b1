import { describe, expect, test } from 'bun:test'
import { validateMetaFlow } from '../../../../server/flows/validate/meta.ts'
import { type Json, body, chain, clone, completeFooter, end, errorsOf, examples, flow, navigateFooter, screen } from './support.ts'

/** A small deterministic generator, so a failure can be replayed. */
function random(seed: number): () => number {
  let state = seed
  return () => {
    state = (state * 1103515245 + 12345) & 0x7fffffff
    return state / 0x7fffffff
  }
}

const ODD_VALUES: unknown[] = [null, 0, -1, 1.5, '', ' ', '${', '${}', '${data.}', '`', '``', '`${data.x`', 'SUCCESS', true, [], {}, [null], { type: 'If' }, { type: 'Switch', cases: { a: null } }, { name: 'navigate', next: null }, { type: 'toString' }, 'constructor']

/** Every (container, key) pair in a document. */
function slots(value: unknown, found: [Record<string | number, unknown>, string | number][] = []) {
  if (Array.isArray(value)) {
    value.forEach((item, i) => {
      found.push([value as unknown as Record<number, unknown>, i])
      slots(item, found)
    })
  } else if (value !== null && typeof value === 'object') {
    for (const key of Object.keys(value)) {
      found.push([value as Record<string, unknown>, key])
      slots((value as Record<string, unknown>)[key], found)
    }
  }
  return found
}

describe('robustness', () => {
  test('600 randomly broken copies of the provider examples are all reported on, never thrown on', () => {
    const next = random(20240601)
    const documents = examples().map(([, , document]) => document)
    for (let round = 0; round < 600; round++) {
      const document = clone(documents[Math.floor(next() * documents.length)] as Json)
      for (let change = 0; change < 1 + Math.floor(next() * 3); change++) {
        const all = slots(document)
        const [container, key] = all[Math.floor(next() * all.length)] as [Record<string | number, unknown>, string | number]
        const roll = next()
        if (roll < 0.3) delete container[key]
        else container[key] = clone(ODD_VALUES[Math.floor(next() * ODD_VALUES.length)])
      }
      const report = validateMetaFlow(document)
      expect(Array.isArray(report.errors) && Array.isArray(report.warnings)).toBe(true)
    }
  })

  test('keys named like built-in object properties are treated as unknown keys', () => {
    expect(errorsOf(flow([end('ONLY', [{ type: 'TextBody', text: 'Hi', constructor: 'x' }])]))).toEqual([
      'INVALID_PROPERTY_KEY /screens/0/layout/children/0/constructor',
    ])
    expect(errorsOf(flow([end('ONLY', [{ type: 'toString' }])]))).toEqual(['INVALID_ENUM_VALUE /screens/0/layout/children/0/type'])
  })

  test('screens named like built-in object properties route like any other', () => {
    const document = flow([screen('constructor', [navigateFooter('toString')]), end('toString')], { routing_model: { constructor: ['toString'], toString: [] } })
    expect(errorsOf(document)).toEqual([])
    expect(errorsOf(flow([screen('constructor', [navigateFooter('toString')]), end('toString')], { routing_model: { toString: [] } }))).toContain(
      'INVALID_ROUTING_MODEL /screens/0/layout/children/0/on-click-action/next/name',
    )
  })

  test('the same document validates to the same report twice (no state leaks between calls)', () => {
    const document = chain(['A', 'B'])
    ;(document.screens as Json[]).push(end('C', [body('${data.missing}')]))
    expect(validateMetaFlow(document)).toEqual(validateMetaFlow(clone(document)))
  })

  test('beyond 1000 errors the report lists 1000 and counts the rest in a last entry', () => {
    const texts = Array.from({ length: 1500 }, () => body('${data.missing}'))
    const errors = validateMetaFlow(flow([end('ONLY', texts)])).errors
    expect(errors).toHaveLength(1001)
    expect(errors[1000]).toEqual({ path: '', code: 'TOO_MANY_ISSUES', message: expect.stringContaining('501 more errors') })
  })

  test('1000 errors or fewer carry no summary entry', () => {
    const texts = Array.from({ length: 999 }, () => body('${data.missing}'))
    const errors = validateMetaFlow(flow([end('ONLY', texts)])).errors
    expect(errors).toHaveLength(1000)
    expect(errors.some((issue) => issue.code === 'TOO_MANY_ISSUES')).toBe(false)
  })

  test('a message names a few of many candidates, not all of them', () => {
    const fields = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`field_${i}`, { type: 'string', __example__: 'x' }]))
    const document = flow([screen('A', [navigateFooter('B')]), end('B', [], { data: fields })])
    const [issue] = validateMetaFlow(document).errors
    expect(issue?.code).toBe('INVALID_NAVIGATE_ACTION_PAYLOAD')
    expect(issue?.message).toContain("'field_0', 'field_1'")
    expect(issue?.message).toContain('and 492 more')
  })

  test('a document nested more than 1000 levels deep is refused at the root before anything recurses into it', () => {
    let deep: unknown = 'x'
    for (let i = 0; i < 100_000; i++) deep = { a: deep }
    expect(errorsOf(flow([end('ONLY')], { extra: deep }))).toEqual(['INVALID_FLOW_JSON '])
  })

  test('components nested more than 64 lists deep are refused where the walk stops', () => {
    const nest = (levels: number): Json => (levels === 0 ? body('Deep') : { type: 'Switch', value: '${data.kind}', cases: { a: [nest(levels - 1)] } })
    const document = flow([end('ONLY', [nest(70)], { data: { kind: { type: 'string', __example__: 'a' } } })])
    expect(errorsOf(document)).toEqual([`INVALID_COMPONENT_PLACEMENT /screens/0/layout/children/0${'/cases/a/0'.repeat(63)}/cases/a`])
  })

  test('a payload nested more than 64 levels deep is refused where the reading stops', () => {
    const nest = (levels: number): unknown => (levels === 0 ? 'x' : { a: nest(levels - 1) })
    const document = flow([screen('ONLY', [completeFooter({ a: nest(70) })], { terminal: true })])
    expect(errorsOf(document)).toEqual([`INVALID_FLOW_JSON /screens/0/layout/children/0/on-click-action/payload${'/a'.repeat(64)}`])
  })

  test('expressions with more than 500 parts or 32 nested parentheses are refused', () => {
    const data = { data: { count: { type: 'number', __example__: 1 } } }
    const long = `${Array.from({ length: 300 }, (_, i) => i).join(' + ')} > \${data.count}`
    const deep = `${'('.repeat(33)}\${data.count}${')'.repeat(33)} > 1`
    const ok = `${'('.repeat(32)}\${data.count}${')'.repeat(32)} > 1`
    const withIf = (condition: string) => flow([end('ONLY', [{ type: 'If', condition, then: [body('Yes')] }], data)])
    expect(errorsOf(withIf(long))).toEqual(['INVALID_IF_CONDITION /screens/0/layout/children/0/condition'])
    expect(errorsOf(withIf(deep))).toEqual(['INVALID_IF_CONDITION /screens/0/layout/children/0/condition'])
    expect(errorsOf(withIf(ok))).toEqual([])
  })
})

