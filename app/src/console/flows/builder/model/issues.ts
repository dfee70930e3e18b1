import { tokensOf } from './json.ts'

export interface Issue {
  path: string
  code: string
  message: string
}

export interface LevelledIssue extends Issue {
  level: 'error' | 'warning'
}

/** Where an issue points on the canvas: a state (and the way under it), or the flow itself. */
export function placeOf(path: string): { state: string | null; way: string | null } {
  const tokens = tokensOf(path)
  if (tokens[0] !== 'states' || tokens[1] === undefined) return { state: null, way: null }
  const rest = tokens.slice(2)
  let way: string | null = null
  if (rest[0] === 'next') way = 'next'
  else if ((rest[0] === 'on' || rest[0] === 'branch') && rest[1] !== undefined) way = `${rest[0]}/${rest[1]}`
  else if (rest[0] === 'handoff' && rest[1] === 'resume') way = 'handoff/resume'
  else if (rest[0] === 'agent' && rest[1] === 'exits' && rest[2] !== undefined) way = `agent/exits/${rest[2]}`
  else if (rest[0] === 'agent' && (rest[1] === 'on_limit' || rest[1] === 'on_error')) way = `agent/${rest[1]}`
  return { state: tokens[1], way }
}

/** Issues per state, errors first. */
export function issuesByState(errors: Issue[], warnings: Issue[]): Map<string, LevelledIssue[]> {
  const byState = new Map<string, LevelledIssue[]>()
  const add = (issue: Issue, level: 'error' | 'warning') => {
    const { state } = placeOf(issue.path)
    if (state === null) return
    byState.set(state, [...(byState.get(state) ?? []), { ...issue, level }])
  }
  for (const issue of errors) add(issue, 'error')
  for (const issue of warnings) add(issue, 'warning')
  return byState
}

/** The issues at a field's pointer or under it. */
export const issuesAt = (issues: LevelledIssue[], pointer: string, exact = false): LevelledIssue[] =>
  issues.filter((issue) => issue.path === pointer || (!exact && issue.path.startsWith(`${pointer}/`)))
