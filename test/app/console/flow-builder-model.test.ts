import { describe, expect, test } from 'bun:test'
import { addState, connect, copyStates, deleteStates, incoming, moveStates, pasteStates, renameState } from '../../../app/src/console/flows/builder/model/edits.ts'
import { flowModel } from '../../../app/src/console/flows/builder/model/flow-model.ts'
import { history } from '../../../app/src/console/flows/builder/model/history.ts'
import { issuesByState, placeOf } from '../../../app/src/console/flows/builder/model/issues.ts'
import { writeAt } from '../../../app/src/console/flows/builder/model/json.ts'

const flow = () => ({
  version: 1,
  start: 'a',
  colour: 'kept as it is',
  states: {
    a: { say: [{ text: 'Pick', buttons: [{ id: 'go', title: 'Go' }, { id: 'stay', title: 'Stay' }] }], on: [{ button: 'go', to: 'b' }, { to: 'a' }] },
    b: { capture: { var: 'x', as: 'text' }, next: 'c' },
    c: { handoff: { resume: 'a' } },
    d: { say: [{ text: 'nobody comes here' }], end: true },
    e: { say: [{ text: 'stuck' }] },
    f: { agent: { instructions: 'Help', exits: [{ when: 'done', to: 'c' }], on_error: 'e' } },
    g: { branch: [{ var: 'x', equals: 'yes', to: 'd' }, { hours: { timezone: 'UTC', days: ['mon'], from: '09:00', until: '17:00' }, to: 'c' }, { to: 'a' }] },
  },
  layout: { states: { a: { x: 10, y: 20 }, b: { x: 300, y: 20 } } },
})

describe('the canvas model', () => {
  test('each state has its kind and a port per way out, labelled by its condition; a button no transition takes is an open port', () => {
    const model = flowModel(flow())
    expect(model.nodes.map((node) => [node.name, node.kind])).toEqual([
      ['a', 'question'],
      ['b', 'capture'],
      ['c', 'handoff'],
      ['d', 'end'],
      ['e', 'message'],
      ['f', 'agent'],
      ['g', 'condition'],
    ])
    expect(model.nodes[0]?.ports).toEqual([
      { way: 'on/0', kind: 'button', label: 'Go', to: 'b' },
      { way: 'on/1', kind: 'fallback', label: 'anything else', to: 'a' },
      { way: 'button:stay', kind: 'button', label: 'Stay', to: null },
    ])
    expect(model.nodes[5]?.ports.map((port) => [port.way, port.kind, port.label])).toEqual([
      ['agent/exits/0', 'exit', 'done'],
      ['agent/on_error', 'error', 'on error'],
    ])
    expect(model.nodes[6]?.ports.map((port) => port.label)).toEqual(['x = yes', 'open 09:00–17:00', 'else'])
    expect(model.edges.map((edge) => edge.id)).toEqual(['a|on/0', 'a|on/1', 'b|next', 'c|handoff/resume', 'f|agent/exits/0', 'f|agent/on_error', 'g|branch/0', 'g|branch/1', 'g|branch/2'])
  })

  test('states the start never reaches are dimmed; states with no way out are dead ends; a draft of any shape draws what it can', () => {
    const model = flowModel(flow())
    expect([...model.unreachable].sort()).toEqual(['d', 'e', 'f', 'g'])
    expect([...model.deadEnds]).toEqual(['e'])
    expect(flowModel(null).nodes).toEqual([])
    expect(flowModel({ states: [1, 2] }).nodes).toEqual([])
  })
})

describe('edits keep everything they are not about', () => {
  test('renaming follows start, every way in and the place on the canvas, and keeps the order of states', () => {
    const renamed = renameState(flow(), 'a', 'welcome') as any
    expect(Object.keys(renamed.states)).toEqual(['welcome', 'b', 'c', 'd', 'e', 'f', 'g'])
    expect(renamed.start).toBe('welcome')
    expect(renamed.states.welcome.on[1].to).toBe('welcome')
    expect(renamed.states.c.handoff.resume).toBe('welcome')
    expect(renamed.states.g.branch[2].to).toBe('welcome')
    expect(renamed.layout.states).toEqual({ welcome: { x: 10, y: 20 }, b: { x: 300, y: 20 } })
    expect(renamed.colour).toBe('kept as it is')
    expect(renameState(flow(), 'a', 'b')).toBe('a state named "b" exists already')
    expect(renameState(flow(), 'a', 'two words')).toContain('a state name')
  })

  test('deleting shows what points at it first, then takes those ways with it', () => {
    expect(incoming(flow(), 'c').map((way) => `${way.from} ${way.way} ${way.label}`)).toEqual(['b next then', 'f agent/exits/0 done', 'g branch/1 open 09:00–17:00'])
    expect(incoming(flow(), 'a')[0]).toEqual({ from: '', way: 'start', label: 'the start' })
    const deleted = deleteStates(flow(), ['c', 'a']) as any
    expect(Object.keys(deleted.states)).toEqual(['b', 'd', 'e', 'f', 'g'])
    expect(deleted.start).toBe('b')
    expect(deleted.states.b).toEqual({ capture: { var: 'x', as: 'text' } })
    expect(deleted.states.f.agent.exits).toEqual([])
    expect(deleted.states.g.branch).toEqual([{ var: 'x', equals: 'yes', to: 'd' }])
    expect(deleted.layout.states).toEqual({ b: { x: 300, y: 20 } })
  })

  test('connecting from an open button adds its transition before the catch-all; other ways are re-pointed', () => {
    const joined = connect(flow(), 'a', 'button:stay', 'd') as any
    expect(joined.states.a.on).toEqual([{ button: 'go', to: 'b' }, { button: 'stay', to: 'd' }, { to: 'a' }])
    expect((connect(flow(), 'f', 'agent/on_limit', 'd') as any).states.f.agent.on_limit).toBe('d')
    expect((connect(flow(), 'e', 'next', 'd') as any).states.e).toEqual({ say: [{ text: 'stuck' }], next: 'd' })
    expect((connect(flow(), 'g', 'branch/1', 'e') as any).states.g.branch[1].to).toBe('e')
  })

  test('copies paste under new names, with the ways between them renamed and the ways out kept', () => {
    const original = flow()
    const { flow: pasted, names } = pasteStates(original, copyStates(original, ['b', 'c']), { x: 40, y: 40 })
    expect(names).toEqual(['b_copy', 'c_copy'])
    const states = (pasted as any).states
    expect(states.b_copy).toEqual({ capture: { var: 'x', as: 'text' }, next: 'c_copy' })
    expect(states.c_copy).toEqual({ handoff: { resume: 'a' } })
    expect((pasted as any).layout.states.b_copy).toEqual({ x: 340, y: 60 })
  })

  test('adding to an empty flow makes it a flow that starts there; moving writes whole pixels under layout', () => {
    const { flow: added, name } = addState({}, 'ask', { capture: { var: 'email', as: 'email' } }, { x: 1.4, y: 2.6 }, { email: { type: 'string' } })
    expect(added).toEqual({ version: 1, start: 'ask', variables: { email: { type: 'string' } }, states: { ask: { capture: { var: 'email', as: 'email' } } }, layout: { states: { ask: { x: 1, y: 3 } } } })
    expect(name).toBe('ask')
    expect(addState(added, 'ask', {}).name).toBe('ask_2')
    expect(Object.keys(moveStates(flow(), { e: { x: 5, y: 5 } }))).toEqual(Object.keys(flow()))
  })

  test('a value set by pointer keeps the order of the keys around it, and the given definition unchanged', () => {
    const original = flow()
    const changed = writeAt(original, '/states/a/say/0/text', 'Choose')
    expect(JSON.stringify(changed)).toBe(JSON.stringify(original).replace('"Pick"', '"Choose"'))
    expect(original.states.a.say[0]?.text).toBe('Pick')
    expect(writeAt(original, '/states/e/next', undefined)).toEqual(original)
  })
})

describe('findings and undo', () => {
  test('an issue is placed on its state and way', () => {
    expect(placeOf('/states/a/on/1/to')).toEqual({ state: 'a', way: 'on/1' })
    expect(placeOf('/states/a~1b/agent/exits/0/when')).toEqual({ state: 'a/b', way: 'agent/exits/0' })
    expect(placeOf('/start')).toEqual({ state: null, way: null })
    expect(issuesByState([{ path: '/states/a/next', code: 'unknown_state', message: 'm' }], [{ path: '/states/a', code: 'unreachable_state', message: 'w' }]).get('a')?.map((i) => i.level)).toEqual(['error', 'warning'])
  })

  test('undo walks back, redo forward, and a new change forgets what was undone', () => {
    const steps = history<number>()
    steps.push(1)
    steps.push(2)
    expect(steps.undo(3)).toBe(2)
    expect(steps.undo(2)).toBe(1)
    expect(steps.redo(1)).toBe(2)
    steps.push(2)
    expect(steps.canRedo()).toBe(false)
  })
})
