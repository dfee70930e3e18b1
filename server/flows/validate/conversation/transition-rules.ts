import { compileMatchPattern } from '../../../flow-language/match-pattern.ts'
import { type DefinitionView, movesOnAtOnce, objectsIn, type StateEntry, stateReferences, type TransitionEntry } from './definition-view.ts'
import type { Findings } from './findings.ts'

/**
 * Transitions in `on` are tried in order: regexes must compile and be runnable by the
 * linear-time matcher within its size bound; a transition no input can reach, a list without an unconditional fallback, and a
 * reply id no message offers are worth a warning.
 */
export function checkTransitions(view: DefinitionView, findings: Findings): void {
  const offered = offeredReplies(view)
  for (const entry of view.states) {
    const transitions = view.transitions(entry)
    if (!Array.isArray(entry.state.on)) continue
    let always: TransitionEntry | undefined
    const firstWithCondition = new Map<string, TransitionEntry>()
    for (const transition of transitions) {
      const condition = conditionKey(transition)
      const earlier = condition === undefined ? undefined : firstWithCondition.get(condition)
      if (always) {
        findings.warning(transition.path, 'unreachable_transition', `is never taken: the unconditional transition at ${always.path} comes first`)
      } else if (earlier) {
        findings.warning(transition.path, 'unreachable_transition', `is never taken: ${earlier.path} has the same condition and comes first`)
      }
      if (condition !== undefined && !earlier) firstWithCondition.set(condition, transition)
      if (transition.kind === 'always') always ??= transition
      if (transition.kind === 'match') checkPattern(transition, findings)
      if (transition.kind === 'button' || transition.kind === 'row') checkReplyId(entry, transition, offered(entry.name), findings)
    }
    if (!always) {
      findings.warning(
        `${entry.path}/on`,
        'no_fallback',
        'has no unconditional transition ({"to": ...}) at the end: input that matches nothing gets the flow\'s fallback reply and the bot waits again',
      )
    }
  }
}

function conditionKey({ kind, transition }: TransitionEntry): string | undefined {
  const value = transition[kind]
  if (kind === 'always' || typeof value !== 'string') return undefined
  return kind === 'equals' ? `equals:${value.trim().toLowerCase()}` : `${kind}:${value}`
}

function checkPattern({ transition, path }: TransitionEntry, findings: Findings): void {
  if (typeof transition.match !== 'string') return
  const compiled = compileMatchPattern(transition.match)
  if (!compiled.ok) findings.error(`${path}/match`, compiled.code, compiled.message)
}

interface Offered {
  buttons: Set<string>
  rows: Set<string>
}

function checkReplyId(entry: StateEntry, transition: TransitionEntry, offered: Offered, findings: Findings): void {
  const id = transition.transition[transition.kind]
  if (typeof id !== 'string') return
  const known = transition.kind === 'button' ? offered.buttons : offered.rows
  if (known.has(id)) return
  const what = transition.kind === 'button' ? 'button' : 'list row'
  findings.warning(
    `${transition.path}/${transition.kind}`,
    'unknown_reply_id',
    `no ${what} with id "${id}" is shown before state "${entry.name}" waits, so the visitor cannot pick it`,
  )
}

/**
 * The reply ids the visitor sees while a state waits: those of its own messages and of the
 * states that lead into it at once with `next`, since their messages arrive just before.
 */
function offeredReplies(view: DefinitionView): (stateName: string) => Offered {
  let own: Map<string, Offered> | undefined
  let leadInto: Map<string, string[]> | undefined
  const memo = new Map<string, Offered>()

  function index(): void {
    own = new Map()
    leadInto = new Map()
    for (const entry of view.states) {
      const offered: Offered = { buttons: new Set(), rows: new Set() }
      for (const { message } of view.messages(entry)) {
        for (const { value } of objectsIn(message.buttons)) if (typeof value.id === 'string') offered.buttons.add(value.id)
        for (const { value: section } of objectsIn(message.sections)) {
          for (const { value } of objectsIn(section.rows)) if (typeof value.id === 'string') offered.rows.add(value.id)
        }
      }
      own.set(entry.name, offered)
      if (!movesOnAtOnce(entry.state)) continue
      for (const { target } of stateReferences(entry)) leadInto.set(target, [...(leadInto.get(target) ?? []), entry.name])
    }
  }

  return (stateName) => {
    const known = memo.get(stateName)
    if (known) return known
    if (!own || !leadInto) index()
    const offered: Offered = { buttons: new Set(), rows: new Set() }
    const pending = [stateName]
    const seen = new Set<string>()
    for (let at = 0; at < pending.length; at++) {
      const name = pending[at] as string
      if (seen.has(name)) continue
      seen.add(name)
      own?.get(name)?.buttons.forEach((id) => offered.buttons.add(id))
      own?.get(name)?.rows.forEach((id) => offered.rows.add(id))
      pending.push(...(leadInto?.get(name) ?? []))
    }
    memo.set(stateName, offered)
    return offered
  }
}
