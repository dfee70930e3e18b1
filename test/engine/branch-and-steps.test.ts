import { describe, expect, test } from 'bun:test'
import { runEngine } from '../../server/engine/run-engine.ts'
import { button, converse, engineCases, flowOf, noContact, says, start, text } from './engine-cases.ts'

const routing = flowOf({
  version: 1,
  start: 'ask',
  variables: { plan: { type: 'string' }, seats: { type: 'number' } },
  states: {
    ask: { say: [{ text: 'Your plan?' }], capture: { var: 'plan', as: 'text' }, next: 'route' },
    route: {
      branch: [
        { var: 'plan', equals: 'PRO', to: 'pro' },
        { contact: 'country', equals: 'de', to: 'german' },
        { var: 'seats', set: false, to: 'seats' },
        { to: 'other' },
      ],
    },
    pro: { say: [{ text: 'Pro it is' }], end: true },
    german: { say: [{ text: 'Hallo' }], end: true },
    seats: { say: [{ text: 'How many seats?' }], capture: { var: 'seats', as: 'number' }, next: 'route' },
    other: { say: [{ text: 'Other' }], end: true },
  },
})

engineCases('branch: the first entry that holds, at once', [
  { name: 'a variable equals a text, trimmed and ignoring case', flow: routing, before: [], input: text(' pro '), messages: says('Pro it is') },
  { name: 'a contact detail equals a text', flow: routing, before: [], input: text('basic'), context: { contact: { country: 'DE' } }, messages: says('Hallo') },
  { name: 'an unset variable, tested with set: false', flow: routing, before: [], input: text('basic'), messages: says('How many seats?') },
  { name: 'the else when nothing holds', flow: routing, before: [text('basic')], input: text('3'), messages: says('Other') },
])

describe('steps: every state entered, with the way in', () => {
  test('start, a capture, a branch and an end', () => {
    const opened = runEngine(routing, null, start, noContact)
    expect(opened.steps).toEqual([{ from: null, way: 'start', to: 'ask' }])
    const answered = runEngine(routing, opened.state, text('basic'), noContact)
    expect(answered.steps).toEqual([
      { from: 'ask', way: 'next', to: 'route' },
      { from: 'route', way: 'branch/2', to: 'seats' },
    ])
  })

  test('a transition is named by its index, a next chain by next, an input that matches nothing by none', () => {
    const flow = flowOf({
      version: 1,
      start: 'menu',
      states: {
        menu: { say: [{ text: 'Pick', buttons: [{ id: 'a', title: 'A' }] }], on: [{ equals: 'x', to: 'menu' }, { button: 'a', to: 'hop' }] },
        hop: { next: 'done' },
        done: { end: true },
      },
    })
    const opened = runEngine(flow, null, start, noContact)
    expect(runEngine(flow, opened.state, text('nothing'), noContact).steps).toEqual([])
    expect(converse(flow, [start, button('a')]).steps).toEqual([
      { from: 'menu', way: 'on/1', to: 'hop' },
      { from: 'hop', way: 'next', to: 'done' },
    ])
  })

  test('agent exits, the limit, a failure with on_error and a resume', () => {
    const flow = flowOf({
      version: 1,
      start: 'ai',
      states: {
        ai: { agent: { instructions: 'Help', exits: [{ when: 'done', to: 'bye' }, { when: 'human', to: 'human' }], max_turns: 2, on_limit: 'human', on_error: 'sorry' } },
        human: { handoff: { resume: 'ai' } },
        sorry: { say: [{ text: 'Sorry' }], end: true },
        bye: { end: true },
      },
    })
    const opened = runEngine(flow, null, start, noContact)
    expect(runEngine(flow, opened.state, { kind: 'agent_exit', exit: 1, values: {} }, noContact).steps).toEqual([{ from: 'ai', way: 'agent/exits/1', to: 'human' }])
    expect(runEngine(flow, opened.state, { kind: 'agent_failed' }, noContact).steps).toEqual([{ from: 'ai', way: 'agent/on_error', to: 'sorry' }])
    const third = converse(flow, [start, text('one'), text('two'), text('three')])
    expect(third.steps).toEqual([{ from: 'ai', way: 'agent/on_limit', to: 'human' }])
    expect(runEngine(flow, third.state, { kind: 'resume' }, noContact).steps).toEqual([{ from: 'human', way: 'handoff/resume', to: 'ai' }])
  })
})

describe('branch on opening hours', () => {
  const hours = flowOf({
    version: 1,
    start: 'route',
    states: {
      route: { branch: [{ hours: { timezone: 'Europe/Berlin', days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '09:00', until: '17:00' }, to: 'open' }, { to: 'closed' }] },
      open: { say: [{ text: 'A person will answer' }], handoff: {} },
      closed: { say: [{ text: 'We are closed' }], end: true },
    },
  })
  const at = (now: string) => runEngine(hours, null, start, { contact: {}, now: Date.parse(now) }).messages
  test('in the time zone: within the days and hours, and not outside them', () => {
    // Monday 2026-03-02: 09:00 in Berlin is 08:00 UTC.
    expect(at('2026-03-02T08:00:00.000Z')).toEqual(says('A person will answer'))
    expect(at('2026-03-02T07:59:00.000Z')).toEqual(says('We are closed'))
    expect(at('2026-03-02T16:00:00.000Z')).toEqual(says('We are closed'))
    // Saturday.
    expect(at('2026-03-07T10:00:00.000Z')).toEqual(says('We are closed'))
  })
  test('without a time, opening hours never hold', () => {
    expect(runEngine(hours, null, start, noContact).messages).toEqual(says('We are closed'))
  })
})
