/**
 * Actions, the rules that need the whole document (which action a property may take, and its
 * shape, are checked with the schema in schema.ts): `complete` only on a terminal screen's Footer,
 * `navigate` to another existing screen with a payload that matches its data, `open_url` only
 * on EmbeddedLink and OptIn, date pickers send `data_exchange` only, PhotoPicker and
 * DocumentPicker values never travel with `navigate`, and `data_exchange` needs an endpoint.
 */
import { MetaCode } from './codes.ts'
import { COMPONENTS } from './component-catalog.ts'
import type { ActionFact, DataField, MetaContext, ScreenFacts } from './context.ts'
import { inputOf, valueTypesOf } from './data-binding.ts'
import { type JsonObject, hasOwn, isObject, listSome, token } from './json.ts'

/** Everything about actions that needs the whole document. */
export function checkActions(ctx: MetaContext): void {
  let firstDataExchange: string | null = null
  for (const screen of ctx.screens) {
    for (const action of screen.actions) {
      if (action.name === 'complete' && !screen.terminal) {
        ctx.issues.error(
          `${action.path}/name`,
          MetaCode.INVALID_COMPLETE_ACTION,
          `'complete' ends the flow, so it is allowed only on a terminal screen; screen '${screen.id}' is not terminal. Set "terminal": true or use 'navigate'.`,
        )
      } else if (action.name === 'navigate') {
        checkNavigate(ctx, action)
      } else if (action.name === 'update_data') {
        checkPayloadAgainst(ctx, action, screen, screen.data, MetaCode.INVALID_UPDATE_DATA_ACTION_PAYLOAD, false)
      } else if (action.name === 'data_exchange') {
        firstDataExchange ??= action.path
      }
    }
    checkMediaPickerPayloads(ctx, screen)
  }
  if (firstDataExchange !== null && !ctx.hasDataApiVersion) {
    ctx.issues.error(
      '/data_api_version',
      MetaCode.MISSING_REQUIRED_PROPERTY,
      `The 'data_exchange' action (first at ${firstDataExchange}) talks to your endpoint, which needs "data_api_version": "3.0" and a "routing_model". Add them, or use 'navigate' and 'complete' instead.`,
    )
  }
}

/** The screen a navigate action opens, when it names an existing other screen. */
export function navigateTarget(ctx: MetaContext, action: ActionFact): ScreenFacts | null {
  const next = action.node.next
  if (!isObject(next) || next.type === 'plugin' || typeof next.name !== 'string') return null
  const target = ctx.screensById.get(next.name)
  return target && target !== action.screen ? target : null
}

function checkNavigate(ctx: MetaContext, action: ActionFact): void {
  const next = action.node.next
  if (!isObject(next) || next.type === 'plugin' || typeof next.name !== 'string') return
  const target = ctx.screensById.get(next.name)
  const path = `${action.path}/next/name`
  if (!target) {
    const known = listSome(ctx.screensById.keys(), ctx.screensById.size)
    ctx.issues.error(path, MetaCode.INVALID_NAVIGATE_ACTION_NEXT_SCREEN_NAME, `No screen has the id '${next.name}'. Navigate to one of ${known}.`)
    return
  }
  if (target === action.screen) {
    ctx.issues.error(path, MetaCode.INVALID_NAVIGATE_ACTION_NEXT_SCREEN_NAME, `Screen '${next.name}' navigates to itself. Name a different screen.`)
    return
  }
  checkPayloadAgainst(ctx, action, target, target.data, MetaCode.INVALID_NAVIGATE_ACTION_PAYLOAD, true)
}

/**
 * A navigate payload must carry exactly the next screen's data fields, each of its declared
 * type; an update_data payload may only set declared fields of its own screen.
 */
function checkPayloadAgainst(
  ctx: MetaContext,
  action: ActionFact,
  target: ScreenFacts,
  declared: Map<string, DataField>,
  code: typeof MetaCode.INVALID_NAVIGATE_ACTION_PAYLOAD | typeof MetaCode.INVALID_UPDATE_DATA_ACTION_PAYLOAD,
  exact: boolean,
): void {
  const payload = action.node.payload
  const where = action.name === 'navigate' ? `screen '${target.id}'` : 'this screen'
  if (!isObject(payload)) {
    if (payload === undefined && exact && declared.size > 0) {
      ctx.issues.error(`${action.path}/payload`, code, `Screen '${target.id}' expects data (${listSome(declared.keys(), declared.size)}); add a 'payload' that passes it.`)
    }
    return
  }
  let matched = 0
  for (const key in payload) {
    const field = declared.get(key)
    if (field) matched++
    const path = `${action.path}/payload/${token(key)}`
    if (!field) {
      ctx.issues.error(path, code, `'${key}' is not declared in the data of ${where}. Declare it there or remove it from the payload.`)
      continue
    }
    const types = valueTypesOf(ctx, action.screen, payload[key])
    if (field.type !== null && types !== null && !types.includes(field.type)) {
      ctx.issues.error(path, code, `'${key}' is declared as ${field.type} on ${where}, but the payload gives ${types.join(' or ')}. Make them agree.`)
    }
  }
  if (exact) {
    const missing = declared.size - matched
    if (missing > 0) {
      const names = listSome(missingKeys(declared, payload), missing)
      ctx.issues.error(`${action.path}/payload`, code, `The payload lacks ${names}, which ${where} declares in its data. Pass ${missing === 1 ? 'it' : 'them'} or remove the declaration.`)
    }
  }
}


/** PhotoPicker and DocumentPicker values: never with navigate; with complete only for one file. */
function* missingKeys(declared: Map<string, DataField>, payload: JsonObject): Generator<string> {
  for (const key of declared.keys()) if (!hasOwn(payload, key)) yield key
}

function checkMediaPickerPayloads(ctx: MetaContext, screen: ScreenFacts): void {
  for (const fact of screen.refs) {
    if (fact.payloadOf !== 'navigate' && fact.payloadOf !== 'complete') continue
    const input = inputOf(ctx, screen, fact.ref)
    const maxProperty = input ? COMPONENTS[input.type]?.input?.maxUploadsProperty : undefined
    if (!input || !maxProperty) continue
    if (fact.payloadOf === 'navigate') {
      ctx.issues.error(
        fact.path,
        MetaCode.INVALID_MEDIA_PICKER_PAYLOAD,
        `${fact.ref.text} is a ${input.type} value, which cannot be passed with 'navigate'. Send it with 'data_exchange', or with 'complete' when at most one file is allowed.`,
      )
      continue
    }
    const max = input.node[maxProperty]
    if (typeof max === 'number' ? max > 1 : max === undefined) {
      ctx.issues.error(
        fact.path,
        MetaCode.INVALID_MEDIA_PICKER_PAYLOAD,
        `A 'complete' payload can carry ${input.type} files only when '${maxProperty}' is at most 1 (${max === undefined ? 'it is not set, and the default allows more' : `it is ${max}`}). Set '${maxProperty}' to 1 or send the files with 'data_exchange'.`,
      )
    }
  }
}
