/**
 * The one walk over a screen's component tree. Each component is checked against the catalog
 * as it is reached, its inputs, actions and bindings are recorded for the rules that need the
 * whole document, and the walk returns what the screen can show at once: for If and Switch the
 * branch with the most of each kind counts, since only one branch is ever on screen.
 */
import { MetaCode } from './codes.ts'
import { COMPONENTS, COMPONENT_TYPES } from './component-catalog.ts'
import { checkIfFooters, checkIfNesting, checkSwitchFooters, reportEmptyCases } from './conditionals.ts'
import type { FormFact, MetaContext, ScreenFacts } from './context.ts'
import { registerForm, registerInput } from './forms.ts'
import { type JsonObject, MAX_DEPTH, hasOwn, isObject, jsonTypeOf, token } from './json.ts'
import { checkComponentLimits } from './limits.ts'
import { checkShape } from './schema.ts'
import { MAX_COMPONENTS_PER_SCREEN, PER_SCREEN_MAX, type PerScreenGroup } from './spec.ts'

export type CountGroup = PerScreenGroup | 'Component'

const CAPS: Readonly<Record<CountGroup, number>> = { ...PER_SCREEN_MAX, Component: MAX_COMPONENTS_PER_SCREEN }
const GROUPS = Object.keys(CAPS) as CountGroup[]

/**
 * Per kind, the paths of the components one rendering of the screen can show, in document
 * order, kept only up to one past the limit: that one is where a limit is exceeded.
 */
export interface Profile {
  readonly paths: Record<CountGroup, string[]>
  /** A Footer somewhere below, in any branch. */
  hasFooter: boolean
}

interface Scope {
  readonly form: FormFact | null
  readonly ifDepth: number
  /** Nesting of component lists (Form, If, Switch), bounded by MAX_DEPTH. */
  readonly depth: number
}

export function walkScreen(ctx: MetaContext, screen: ScreenFacts, children: unknown, path: string): Profile {
  return walkList(ctx, screen, children, path, { form: null, ifDepth: 0, depth: 0 })
}

function walkList(ctx: MetaContext, screen: ScreenFacts, list: unknown, path: string, scope: Scope): Profile {
  const profile = emptyProfile()
  if (!Array.isArray(list)) return profile
  if (scope.depth >= MAX_DEPTH) {
    ctx.issues.error(path, MetaCode.INVALID_COMPONENT_PLACEMENT, `Components are nested more than ${MAX_DEPTH} levels deep here, which no screen needs. Flatten them.`)
    return profile
  }
  const inner = { ...scope, depth: scope.depth + 1 }
  for (let i = 0; i < list.length; i++) {
    const child = list[i]
    const childPath = `${path}/${i}`
    if (isObject(child)) visit(ctx, screen, child, childPath, inner, profile)
    else ctx.issues.error(childPath, MetaCode.INVALID_PROPERTY_TYPE, `Each component must be an object with a 'type', not ${jsonTypeOf(child)}.`)
  }
  return profile
}

function visit(ctx: MetaContext, screen: ScreenFacts, component: JsonObject, path: string, scope: Scope, profile: Profile): void {
  const type = component.type
  if (type === undefined) {
    ctx.issues.error(`${path}/type`, MetaCode.MISSING_REQUIRED_TYPE_PROPERTY, "Add the component's 'type' (TextBody, TextInput, Footer, ...).")
    return
  }
  const spec = typeof type === 'string' && hasOwn(COMPONENTS, type) ? COMPONENTS[type] : undefined
  if (typeof type !== 'string' || !spec) {
    ctx.issues.error(`${path}/type`, MetaCode.INVALID_ENUM_VALUE, `'${String(type)}' is not a Flow JSON component. Use one of: ${COMPONENT_TYPES.join(', ')}.`)
    return
  }
  ctx.requireVersion(spec.since, `${path}/type`, `The ${type} component`)
  checkShape({ ctx, screen, owner: type }, component, spec.shape, path)
  checkComponentLimits(ctx, type, component, path)

  if (type !== 'If' && type !== 'Switch' && type !== 'Form') add(profile, 'Component', path)
  if (spec.perScreen) add(profile, spec.perScreen, path)
  if (type === 'Footer') {
    screen.hasFooter = true
    profile.hasFooter = true
    if (scope.ifDepth >= 2) {
      ctx.issues.error(path, MetaCode.INVALID_COMPONENT_PLACEMENT, 'A Footer may sit in an If only at its first level, not inside a nested If. Move it up to the outermost If.')
    }
  }
  if (spec.input) registerInput(ctx, screen, type, component, path, scope.form)
  else if (type === 'NavigationList' && typeof component.name === 'string') screen.names.add(component.name)

  if (type === 'Form') {
    const form = registerForm(screen, component, path)
    append(profile, walkList(ctx, screen, component.children, `${path}/children`, { ...scope, form }))
  } else if (type === 'If') {
    const depth = scope.ifDepth + 1
    checkIfNesting(ctx, depth, path)
    const inner = { ...scope, ifDepth: depth }
    const thenProfile = walkList(ctx, screen, component.then, `${path}/then`, inner)
    const elseProfile = walkList(ctx, screen, component.else, `${path}/else`, inner)
    if (Array.isArray(component.then)) checkIfFooters(ctx, component, path, thenProfile.hasFooter, elseProfile.hasFooter)
    appendLongest(profile, [thenProfile, elseProfile])
  } else if (type === 'Switch') {
    walkCases(ctx, screen, component, path, scope, profile)
  }
}

function walkCases(ctx: MetaContext, screen: ScreenFacts, component: JsonObject, path: string, scope: Scope, profile: Profile): void {
  const cases = component.cases
  if (!isObject(cases)) return
  const branches: Profile[] = []
  const withFooter = new Map<string, boolean>()
  let count = 0
  for (const key in cases) {
    count++
    const list = cases[key]
    const casePath = `${path}/cases/${token(key)}`
    if (!Array.isArray(list)) {
      ctx.issues.error(casePath, MetaCode.INVALID_PROPERTY_TYPE, `Case '${key}' must be an array of components, not ${jsonTypeOf(list)}.`)
      continue
    }
    if (list.length === 0) ctx.issues.error(casePath, MetaCode.MIN_ITEMS_REQUIRED, `Case '${key}' is empty. Give it at least one component, or remove it.`)
    const branch = walkList(ctx, screen, list, casePath, scope)
    branches.push(branch)
    withFooter.set(key, branch.hasFooter)
  }
  if (count === 0) reportEmptyCases(ctx, path)
  checkSwitchFooters(ctx, path, withFooter)
  appendLongest(profile, branches)
}

function emptyProfile(): Profile {
  return { paths: { Component: [], Footer: [], EmbeddedLink: [], Image: [], OptIn: [], ImageCarousel: [], MediaPicker: [] }, hasFooter: false }
}

function add(profile: Profile, group: CountGroup, path: string): void {
  const paths = profile.paths[group]
  if (paths.length <= CAPS[group]) paths.push(path)
}

/** Siblings: everything below `source` shows together with what `target` already holds. */
function append(target: Profile, source: Profile): void {
  for (const group of GROUPS) {
    const paths = target.paths[group]
    for (const path of source.paths[group]) {
      if (paths.length > CAPS[group]) break
      paths.push(path)
    }
  }
  target.hasFooter ||= source.hasFooter
}

/** Alternatives: only one branch shows, so the fullest one counts. */
function appendLongest(target: Profile, branches: Profile[]): void {
  for (const group of GROUPS) {
    let longest: string[] = []
    for (const branch of branches) if (branch.paths[group].length > longest.length) longest = branch.paths[group]
    const paths = target.paths[group]
    for (const path of longest) {
      if (paths.length > CAPS[group]) break
      paths.push(path)
    }
  }
  target.hasFooter ||= branches.some((branch) => branch.hasFooter)
}
