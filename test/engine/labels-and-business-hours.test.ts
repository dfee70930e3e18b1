import { describe, expect, test } from 'bun:test'
import { DEFAULT_CLOSED_TEXT } from '../../server/engine/enter-state.ts'
import { runEngine } from '../../server/engine/run-engine.ts'
import { flowOf, noContact, says, start, text } from './engine-cases.ts'

const triage = flowOf({
  version: 1,
  start: 'route',
  states: {
    route: {
      branch: [
        { label: 'VIP', to: 'vip' },
        { business_hours: false, to: 'closed' },
        { to: 'menu' },
      ],
    },
    vip: { say: [{ text: 'Straight to a person' }], handoff: {} },
    closed: { say: [{ text: 'We are closed' }], end: true },
    menu: { say: [{ text: 'How can I help?' }], on: [{ match: 'refund', to: 'refund' }] },
    refund: { say: [{ text: 'Refunds it is' }], labels: { add: ['Billing', 'Refund'], remove: ['vip'] }, next: 'check' },
    check: { branch: [{ label: 'refund', to: 'labelled' }, { to: 'unlabelled' }] },
    labelled: { say: [{ text: 'Labelled' }], end: true },
    unlabelled: { say: [{ text: 'Not labelled' }], end: true },
  },
})

describe("branch on the conversation's labels", () => {
  test('a label the conversation carries holds, in any case; without labels it does not', () => {
    expect(runEngine(triage, null, start, { contact: {}, labels: ['vip'] }).messages).toEqual(says('Straight to a person'))
    expect(runEngine(triage, null, start, { contact: {}, labels: ['other'] }).messages).toEqual(says('How can I help?'))
    expect(runEngine(triage, null, start, noContact).messages).toEqual(says('How can I help?'))
  })
})

describe("branch on the chatbot's business hours", () => {
  test('outside them the branch is taken; within them, and without the fact (no hours set), it is not', () => {
    expect(runEngine(triage, null, start, { contact: {}, withinBusinessHours: false }).messages).toEqual(says('We are closed'))
    expect(runEngine(triage, null, start, { contact: {}, withinBusinessHours: true }).messages).toEqual(says('How can I help?'))
    expect(runEngine(triage, null, start, noContact).messages).toEqual(says('How can I help?'))
  })
})

describe('a handoff outside business hours', () => {
  const handoff = flowOf({ version: 1, start: 'human', states: { human: { handoff: { text: 'A person will answer you here shortly.' } } } })
  test("says the chatbot's closed text instead of promising an answer shortly, and reports it", () => {
    const outside = runEngine(handoff, null, start, { contact: {}, withinBusinessHours: false, closedText: 'Back at 9. Leave your e-mail.' })
    expect(outside.messages).toEqual(says('Back at 9. Leave your e-mail.'))
    expect(outside.events).toEqual([{ type: 'handoff', state: 'human', outside_hours: true }])
    expect(outside.state.status).toBe('handoff')
  })
  test('says the default closed text without one of the chatbot’s, and its own text within the hours', () => {
    expect(runEngine(handoff, null, start, { contact: {}, withinBusinessHours: false }).messages).toEqual(says(DEFAULT_CLOSED_TEXT))
    const within = runEngine(handoff, null, start, { contact: {}, withinBusinessHours: true })
    expect(within.messages).toEqual(says('A person will answer you here shortly.'))
    expect(within.events).toEqual([{ type: 'handoff', state: 'human' }])
  })
})

describe('a state that labels the conversation', () => {
  test('reports what to set and take off, and a branch after it sees the new labels at once', () => {
    const opened = runEngine(triage, null, start, noContact)
    const result = runEngine(triage, opened.state, text('refund please'), { contact: {}, labels: ['vip'] })
    expect(result.messages).toEqual(says('Refunds it is', 'Labelled'))
    expect(result.events).toContainEqual({ type: 'labelled', state: 'refund', add: ['Billing', 'Refund'], remove: ['vip'] })
  })

  test('the context it was given is not changed (the engine is pure)', () => {
    const labels = ['vip']
    const opened = runEngine(triage, null, start, noContact)
    runEngine(triage, opened.state, text('refund'), { contact: {}, labels })
    expect(labels).toEqual(['vip'])
  })
})
