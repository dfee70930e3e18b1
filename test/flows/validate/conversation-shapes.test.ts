import { describe, expect, test } from 'bun:test'
import { validateConversationFlow } from '../../../server/flows/validate/conversation.ts'
import { type Flow, references, validFlow, variant } from './conversation-fixture.ts'

const validate = (definition: unknown) => validateConversationFlow(definition, references)

describe('definitions of the wrong shape', () => {
  for (const definition of [null, [], 'flow', 5, true]) {
    test(`${JSON.stringify(definition)} is one wrong_type error at the root`, () => {
      expect(validate(definition)).toEqual({
        errors: [{ path: '', code: 'wrong_type', message: 'the flow definition must be a JSON object' }],
        warnings: [],
      })
    })
  }

  test('an empty object misses version, start and states, and nothing else is said', () => {
    const { errors, warnings } = validate({})
    expect(errors.map((e) => [e.code, e.path])).toEqual([
      ['missing_field', '/version'],
      ['missing_field', '/start'],
      ['missing_field', '/states'],
    ])
    expect(warnings).toEqual([])
  })

  test('a field of two message kinds says which key chose the kind', () => {
    const { errors } = validate(variant((f) => (f.states.welcome.say[1].sections = [])))
    expect(errors).toEqual([
      { path: '/states/welcome/say/1/sections', code: 'unknown_key', message: '"sections" cannot be combined with "buttons"; keep one of them' },
    ])
  })

  test('a missing field is reported once, as missing', () => {
    const { errors } = validate(variant((f) => delete f.states.ask_email.capture.as))
    expect(errors).toEqual([{ path: '/states/ask_email/capture/as', code: 'missing_field', message: 'as is required' }])
  })

  test('a bad state name in a reference is one error, not also an unknown state', () => {
    const { errors } = validate(variant((f) => (f.states.welcome.on[0].to = 'ask email')))
    expect(errors.map((e) => [e.code, e.path])).toEqual([['invalid_value', '/states/welcome/on/0/to']])
  })

  test('every problem is reported at once, not only the first', () => {
    const { errors } = validate(
      variant((f) => {
        f.start = 'nowhere'
        delete f.states.thanks.end
        f.states.welcome.on[2].match = '('
      }),
    )
    expect(errors.map((e) => e.code).sort()).toEqual(['invalid_regex', 'no_way_out', 'unknown_state'])
  })

  test('any value anywhere in a flow is reported, never thrown', () => {
    const odd: unknown[] = [null, 0, -1.5, '', 'x', true, [], [null], {}, { x: 1 }]
    const paths: (string | number)[][] = []
    const collect = (value: unknown, path: (string | number)[]) => {
      paths.push(path)
      if (value && typeof value === 'object') for (const [key, inner] of Object.entries(value)) collect(inner, [...path, Array.isArray(value) ? Number(key) : key])
    }
    collect(validFlow(), [])
    let checked = 0
    for (const path of paths.slice(1)) {
      for (const value of odd) {
        const flow: Flow = validFlow()
        let parent = flow
        for (const key of path.slice(0, -1)) parent = parent[key]
        parent[path.at(-1) as string] = value
        const report = validate(flow)
        for (const issue of [...report.errors, ...report.warnings]) {
          expect(issue.path === '' || issue.path.startsWith('/')).toBe(true)
          expect(issue.message.length).toBeGreaterThan(0)
        }
        checked += 1
      }
    }
    expect(checked).toBeGreaterThan(500)
  })
})

describe('larger flows', () => {
  test('a flow of 5,000 chained states validates clean', () => {
    const states: Record<string, unknown> = {}
    for (let i = 0; i < 5000; i++) {
      states[`s${i}`] = i === 4999 ? { end: true } : { say: [{ text: `Step ${i}` }], on: [{ equals: 'back', to: 's0' }, { to: `s${i + 1}` }] }
    }
    expect(validate({ version: 1, start: 's0', states })).toEqual({ errors: [], warnings: [] })
  })
})
