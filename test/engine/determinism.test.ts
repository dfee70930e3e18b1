import { describe, expect, test } from 'bun:test'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { Value } from '@sinclair/typebox/value'
import { ConversationState, type EngineContext, type EngineInput, type EngineResult } from '../../server/engine/model.ts'
import { runEngine } from '../../server/engine/run-engine.ts'
import type { ConversationFlow } from '../../server/flow-language/conversation-flow-schema.ts'
import leadCaptureDefinition from './fixtures/lead-capture.json'
import salesAndSupportDefinition from './fixtures/sales-and-support.json'
import { flowOf } from './engine-cases.ts'

const flows: [string, ConversationFlow][] = [
  ['sales-and-support', flowOf(salesAndSupportDefinition)],
  ['lead-capture', flowOf(leadCaptureDefinition)],
]
const context: EngineContext = { contact: { first_name: 'Grace' }, defaultCountry: 'GB' }

/** A small seeded generator, so that every run plays exactly the same inputs. */
function seeded(seed: number) {
  let value = seed
  return (below: number) => {
    value = (value * 1103515245 + 12345) % 2147483648
    return value % below
  }
}

const texts = ['hi', 'Sales', 'pricing', 'support', 'human', 'pro', 'Basic', '12', 'lots', '020 7946 0958', '+1 555', 'grace@acme.io', 'x@example.com', '', '   ', 'Plans and prices', 'Book a demo', 'ünïcödé ✓', '{{email}}', 'a'.repeat(5000)]
const replies: EngineInput[] = [
  { kind: 'reply', reply_to: 'button', id: 'sales', title: 'Sales' },
  { kind: 'reply', reply_to: 'button', id: 'support', title: 'Support' },
  { kind: 'reply', reply_to: 'button', id: 'pro', title: '' },
  { kind: 'reply', reply_to: 'row', id: 'plans', title: 'Plans and prices' },
  { kind: 'reply', reply_to: 'row', id: 'agent', title: 'x' },
  { kind: 'reply', reply_to: 'row', id: 'unknown', title: 'Unknown' },
]

function randomInputs(seed: number, count: number): EngineInput[] {
  const next = seeded(seed)
  return Array.from({ length: count }, () => {
    const roll = next(20)
    if (roll === 0) return { kind: 'start' }
    if (roll === 1) return { kind: 'resume' }
    if (roll < 8) return replies[next(replies.length)] as EngineInput
    return { kind: 'text', text: texts[next(texts.length)] as string }
  })
}

function playAll(flow: ConversationFlow, inputs: EngineInput[], throughJson: boolean): EngineResult[] {
  let state: ConversationState | null = null
  return inputs.map((input) => {
    const result = runEngine(flow, state, input, context)
    state = throughJson ? JSON.parse(JSON.stringify(result.state)) : result.state
    return result
  })
}

describe('determinism', () => {
  for (const [name, flow] of flows) {
    test(`${name}: the same inputs give the same states, messages and events, whether the state is kept in memory or stored as JSON`, () => {
      const inputs = randomInputs(7, 300)
      const first = playAll(flow, inputs, false)
      const again = playAll(flow, inputs, false)
      const stored = playAll(flow, inputs, true)
      expect(again).toEqual(first)
      expect(JSON.parse(JSON.stringify(stored))).toEqual(JSON.parse(JSON.stringify(first)))
    })

    test(`${name}: a long run of mixed inputs never throws and every state is consistent`, () => {
      for (const seed of [1, 2, 3, 4, 5]) {
        const results = playAll(flow, randomInputs(seed, 200), true)
        for (const { state, messages } of results) {
          expect(Value.Check(ConversationState, state)).toBe(true)
          expect(Object.hasOwn(flow.states, state.state)).toBe(true)
          // The bot waits exactly when it is running; handed off and closed wait for nothing.
          expect(state.waiting === null).toBe(state.status !== 'bot')
          expect(messages.every((message) => message.kind !== 'text' || message.text.trim() !== '')).toBe(true)
        }
      }
    })
  }
})

describe('purity', () => {
  const engineDir = join(import.meta.dir, '../../server/engine')
  const sources = readdirSync(engineDir)
    .filter((file) => file.endsWith('.ts'))
    .map((file) => ({ file, source: readFileSync(join(engineDir, file), 'utf8') }))

  test('the engine imports nothing from http, channels, db or any store', () => {
    for (const { file, source } of sources) {
      const imports = [...source.matchAll(/from '([^']+)'/g)].map((found) => found[1] as string)
      const forbidden = imports.filter((path) => /\/(http|channels|db)\/|store(\.ts)?$|^node:|^bun/.test(path))
      expect({ file, forbidden }).toEqual({ file, forbidden: [] })
    }
  })

  test('the engine reads no clock and draws no random numbers or ids', () => {
    for (const { file, source } of sources) {
      const impure = source.match(/\b(Date|performance|Math\.random|crypto|newId|randomToken|process|Bun)\b/g) ?? []
      expect({ file, impure }).toEqual({ file, impure: [] })
    }
  })
})
