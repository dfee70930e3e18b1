/**
 * Screens: ids unique, not SUCCESS, letters and _ only; at most 100 screens and 50 components
 * each, with per-kind maxima; a terminal screen exists and each has a Footer; `success` only on
 * terminal screens and true on at least one; `refresh_on_back` only with an endpoint.
 */
import { MetaCode } from './codes.ts'
import type { MetaContext, ScreenFacts } from './context.ts'
import { type JsonObject, isObject, jsonTypeOf } from './json.ts'
import { readScreenData } from './screen-data.ts'
import { type Shape, PER_SCREEN_MAX } from './spec.ts'
import type { CountGroup, Profile } from './walk.ts'

export const MAX_SCREENS = 100
const SCREEN_ID = /^[A-Za-z_]+$/

export const SCREEN_SHAPE: Shape = {
  name: 'a screen',
  props: {
    id: { types: ['string'], required: 0, role: 'nested' },
    title: { types: ['string'] },
    terminal: { types: ['boolean'], staticOnly: true },
    success: { types: ['boolean'], staticOnly: true },
    refresh_on_back: { types: ['boolean'], staticOnly: true },
    // Any type: readScreenData explains what is wrong with it.
    data: { types: ['string', 'number', 'boolean', 'array', 'object'], role: 'nested' },
    layout: { types: ['object'], required: 0, role: 'nested' },
    sensitive: { types: ['array'], since: 501, items: { types: ['string'], staticOnly: true } },
  },
}

/** First pass: every screen's id and data model, so bindings and actions can look screens up. */
export function indexScreens(ctx: MetaContext, screens: unknown[]): void {
  if (screens.length > MAX_SCREENS) {
    ctx.issues.error(`/screens/${MAX_SCREENS}`, MetaCode.MAX_SCREENS_NUMBER, `A flow has at most ${MAX_SCREENS} screens; this one has ${screens.length}. Split it into several flows.`)
  }
  for (let index = 0; index < screens.length; index++) {
    const node = screens[index]
    const path = `/screens/${index}`
    if (!isObject(node)) {
      ctx.issues.error(path, MetaCode.INVALID_PROPERTY_TYPE, `Each screen must be an object with an 'id' and a 'layout', not ${jsonTypeOf(node)}.`)
      continue
    }
    const id = checkScreenId(ctx, node.id, `${path}/id`)
    const screen: ScreenFacts = {
      index,
      path,
      node,
      id,
      terminal: node.terminal === true,
      data: readScreenData(ctx, node.data, `${path}/data`),
      inputs: new Map(),
      names: new Set(),
      forms: [],
      formsByName: new Map(),
      actions: [],
      refs: [],
      conditions: [],
      hasFooter: false,
    }
    ctx.screens.push(screen)
    if (id === null) continue
    const first = ctx.screensById.get(id)
    if (first) {
      ctx.issues.error(`${path}/id`, MetaCode.DUPLICATE_SCREEN_IDS, `Screen id '${id}' is already used by ${first.path}. Give each screen its own id.`)
    } else {
      ctx.screensById.set(id, screen)
    }
  }
}

function checkScreenId(ctx: MetaContext, id: unknown, path: string): string | null {
  if (typeof id !== 'string') {
    if (id !== undefined) ctx.issues.error(path, MetaCode.INVALID_PROPERTY_TYPE, `A screen 'id' must be a string, not ${jsonTypeOf(id)}.`)
    return null
  }
  if (id.length === 0) {
    ctx.issues.error(path, MetaCode.MIN_CHARS_REQUIRED, "The screen 'id' is empty. Name the screen, e.g. \"WELCOME\".")
    return null
  }
  if (id.toUpperCase() === 'SUCCESS') {
    ctx.issues.error(path, MetaCode.SCREEN_ID_IS_RESERVED_KEYWORD, `'${id}' is reserved (SUCCESS, in any case, ends a flow). Choose another screen id.`)
  } else if (!SCREEN_ID.test(id)) {
    ctx.issues.error(path, MetaCode.PATTERN_MISMATCH, `Screen id '${id}' may only contain letters and underscores, e.g. "ORDER_DETAILS".`)
  }
  return id
}

const GROUP_NAMES: Readonly<Record<Exclude<CountGroup, 'Component' | 'Footer'>, string>> = {
  EmbeddedLink: 'EmbeddedLink components',
  Image: 'Image components',
  OptIn: 'OptIn components',
  ImageCarousel: 'ImageCarousel components',
  MediaPicker: 'PhotoPicker or DocumentPicker components (together)',
}

/** What the walk found one rendering of the screen can show, against the per-screen maxima. */
export function checkScreenCounts(ctx: MetaContext, profile: Profile): void {
  const footer = profile.paths.Footer[1]
  if (footer) {
    ctx.issues.error(footer, MetaCode.MORE_THAN_ONE_FOOTER, 'A screen shows at most one Footer, counting those inside If and Switch branches. Remove this one or merge them.')
  }
  const extra = profile.paths.Component[50]
  if (extra) {
    ctx.issues.error(extra, MetaCode.MAX_ALLOWED_COMPONENTS_PER_SCREEN, 'A screen shows at most 50 components; this is the 51st. Move some to another screen.')
  }
  for (const group of Object.keys(GROUP_NAMES) as (keyof typeof GROUP_NAMES)[]) {
    const max = PER_SCREEN_MAX[group]
    const over = profile.paths[group][max]
    if (over) {
      ctx.issues.error(over, MetaCode.COMPONENT_TYPE_MAX_NUMBER_PER_SCREEN, `A screen shows at most ${max} ${GROUP_NAMES[group]}; this one goes over. Remove it or move it to another screen.`)
    }
  }
}

/** Rules about screens that need the whole document walked. */
export function checkScreenRules(ctx: MetaContext): void {
  const terminals = ctx.screens.filter((screen) => screen.terminal)
  if (ctx.screens.length > 0 && terminals.length === 0) {
    ctx.issues.error('/screens', MetaCode.MISSING_TERMINAL_SCREEN, 'No screen is terminal, so the flow can never finish. Set "terminal": true on its last screen (which needs a Footer).')
  }
  if (terminals.length > 0 && terminals.every((screen) => screen.node.success === false)) {
    ctx.issues.error('/screens', MetaCode.MISSING_SUCCESSFUL_TERMINAL_SCREEN, 'Every terminal screen has "success": false. At least one must end the flow successfully; remove "success" or set it to true on one.')
  }
  for (const screen of ctx.screens) {
    const node = screen.node
    if (screen.terminal && !screen.hasFooter) {
      ctx.issues.error(screen.path, MetaCode.MISSING_FOOTER_ON_TERMINAL_SCREEN, `Terminal screen '${screen.id}' has no Footer, so it cannot be finished. Add a Footer (usually with a 'complete' action).`)
    }
    if (!screen.terminal && !screen.hasFooter) {
      ctx.issues.warning(screen.path, MetaCode.MISSING_FOOTER_ON_NON_TERMINAL_SCREEN, `Screen '${screen.id}' is not terminal and has no Footer, so people can only leave it with the back button. Add a Footer if it should lead on.`)
    }
    if (node.success !== undefined && !screen.terminal) {
      ctx.issues.error(`${screen.path}/success`, MetaCode.SUCCESS_ON_NON_TERMINAL_SCREEN, `'success' describes how a flow ends, so it belongs only on terminal screens. Remove it or make '${screen.id}' terminal.`)
    }
    if (node.refresh_on_back === true && !ctx.hasDataApiVersion) {
      ctx.issues.error(
        `${screen.path}/refresh_on_back`,
        MetaCode.INVALID_REFRESH_ON_BACK,
        "'refresh_on_back' asks your endpoint for fresh data, so it needs \"data_api_version\". Remove it or give the flow an endpoint.",
      )
    }
    checkSensitive(ctx, screen, node)
  }
}

function checkSensitive(ctx: MetaContext, screen: ScreenFacts, node: JsonObject): void {
  if (!Array.isArray(node.sensitive)) return
  node.sensitive.forEach((name, i) => {
    if (typeof name === 'string' && !screen.names.has(name)) {
      ctx.issues.error(`${screen.path}/sensitive/${i}`, MetaCode.INVALID_SENSITIVE_FIELD, `'sensitive' lists '${name}', but no component on screen '${screen.id}' has that name.`)
    }
  })
}
