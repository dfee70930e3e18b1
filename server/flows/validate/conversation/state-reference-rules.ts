import { type DefinitionView, stateReferences } from './definition-view.ts'
import type { Findings } from './findings.ts'

/** `start`, `next`, every `to`, `handoff.resume` and agent exits name states that exist. */
export function checkStateReferences(view: DefinitionView, findings: Findings): void {
  if (!view.root || view.stateNames.size === 0) return
  const known = describeKnown(view)
  const check = (target: string, path: string) => {
    if (view.stateNames.has(target) || findings.hasErrorAt(path)) return
    findings.error(path, 'unknown_state', `"${target}" names no state of this flow; ${known}`)
  }
  if (typeof view.root.start === 'string') check(view.root.start, '/start')
  for (const entry of view.states) for (const { target, path } of stateReferences(entry)) check(target, path)
}

function describeKnown(view: DefinitionView): string {
  const names = [...view.stateNames]
  const shown = names.slice(0, 10).map((name) => `"${name}"`).join(', ')
  return `its states are ${shown}${names.length > 10 ? ` and ${names.length - 10} more` : ''}`
}
