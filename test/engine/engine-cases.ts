import { describe, expect, test } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import { runEngine } from '../../server/engine/run-engine.ts'
import { ConversationState, type EngineContext, type EngineEvent, type EngineInput, type EngineResult } from '../../server/engine/model.ts'
import { ConversationFlow } from '../../server/flow-language/conversation-flow-schema.ts'
import type { Content } from '../../server/protocol/widget-protocol.ts'

export const noContact: EngineContext = { contact: {} }

/** A flow for a test, checked against the published schema so that tests use real definitions. */
export function flowOf(definition: unknown): ConversationFlow {
  if (!Value.Check(ConversationFlow, definition)) {
    throw new Error(`test flow breaks the schema: ${JSON.stringify([...Value.Errors(ConversationFlow, definition)].map((e) => `${e.path} ${e.message}`))}`)
  }
  return definition
}

/** Runs inputs one after the other from a fresh conversation; the last result. */
export function converse(flow: ConversationFlow, inputs: EngineInput[], context: EngineContext = noContact, state: ConversationState | null = null): EngineResult {
  let result: EngineResult | undefined
  let current = state
  for (const input of inputs) {
    result = runEngine(flow, current, input, context)
    current = result.state
  }
  if (!result) throw new Error('converse needs at least one input')
  return result
}

export const text = (value: string): EngineInput => ({ kind: 'text', text: value })
export const button = (id: string, title = ''): EngineInput => ({ kind: 'reply', reply_to: 'button', id, title })
export const row = (id: string, title = ''): EngineInput => ({ kind: 'reply', reply_to: 'row', id, title })
export const start: EngineInput = { kind: 'start' }
export const resume: EngineInput = { kind: 'resume' }
export const says = (...texts: string[]): Content[] => texts.map((value) => ({ kind: 'text', text: value }))

export interface EngineCase {
  name: string
  flow: ConversationFlow
  /** Inputs that bring a fresh conversation to the state under test (after a start). */
  before?: EngineInput[]
  /** Or the state itself, as stored. */
  state?: ConversationState | null
  input: EngineInput
  context?: EngineContext
  /** Compared in full. */
  messages?: Content[]
  events?: EngineEvent[]
  /** Compared as a subset of the resulting state. */
  state_after?: Partial<ConversationState>
}

/**
 * Table-driven engine scenarios: (flow, state, input) → (state, messages, events). Every row
 * also checks that the resulting state is JSON that round-trips, and that the given state
 * was not changed.
 */
export function engineCases(title: string, rows: EngineCase[]): void {
  describe(title, () => {
    for (const row of rows) {
      test(row.name, () => {
        const context = row.context ?? noContact
        const given = row.state !== undefined ? row.state : row.before ? converse(row.flow, [start, ...row.before], context).state : null
        const frozen = JSON.stringify(given)
        const result = runEngine(row.flow, given, row.input, context)
        if (row.messages) expect(result.messages).toEqual(row.messages)
        if (row.events) expect(result.events).toEqual(row.events)
        if (row.state_after) expect(result.state).toMatchObject(row.state_after)
        expect(JSON.stringify(given)).toBe(frozen)
        expect(JSON.parse(JSON.stringify(result.state))).toEqual(result.state)
        expect(Value.Check(ConversationState, result.state)).toBe(true)
      })
    }
  })
}
