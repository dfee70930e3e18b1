/**
 * The vocabulary the component catalog is written in: what a property accepts, from which
 * version, with which limits. The schema checker reads it; nothing here checks anything.
 */
import type { DataType, JsonObject } from './json.ts'

export type ValueType = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object'

export type ActionName = 'complete' | 'data_exchange' | 'navigate' | 'update_data' | 'open_url'

export const ACTION_NAMES: readonly ActionName[] = ['complete', 'data_exchange', 'navigate', 'update_data', 'open_url']

/** How the walker treats a property beyond its type. */
export type PropRole =
  | 'children' // an array of components, walked as part of the tree
  | 'cases' // Switch cases: an object of component arrays
  | 'action' // an action object, checked by the action rules
  | 'condition' // an If condition expression
  | 'switch-value' // a Switch value: one binding
  | 'free' // an object with keys of the author's choosing (init-values, error-messages, payloads)
  | 'nested' // checked by its own rules (a screen's data and layout); only the type here

export interface PropSpec {
  readonly types: readonly ValueType[]
  /** Required from this version on (0: always). */
  readonly required?: number
  /** Allowed from this version on. */
  readonly since?: number
  /** The array form of a string-or-array property is allowed from this version on. */
  readonly arraySince?: number
  readonly enum?: readonly string[]
  readonly maxChars?: number
  /** The character limit disagrees with the provider's own examples, so it only warns. */
  readonly maxCharsIsWarning?: boolean
  /** Bindings (`${…}`) are not allowed: the value is a plain identifier or keyword. */
  readonly staticOnly?: boolean
  readonly items?: PropSpec
  readonly minItems?: number
  readonly maxItems?: number
  /** Known keys of an object value. */
  readonly shape?: Shape
  readonly role?: PropRole
  /** For role 'action': which actions the property takes. */
  readonly actions?: ActionSlot
}

export interface Shape {
  /** Named in messages: "Property 'x' is not allowed in <name>." */
  readonly name: string
  readonly props: Readonly<Record<string, PropSpec>>
}

export interface ActionSlot {
  readonly allowed: readonly ActionName[]
  /** Code for any other action when the reference gives this slot its own rule. */
  readonly otherCode?: 'INVALID_ON_SELECT_ACTION'
}

/** A component that holds a value the user enters or picks. */
export interface InputSpec {
  /** The types its value can have (in payloads, init-values, navigate payload checks). */
  valueTypes(component: JsonObject): readonly DataType[]
  /** PhotoPicker and DocumentPicker: the property that caps how many files it returns. */
  readonly maxUploadsProperty?: string
}

export type PerScreenGroup = 'Footer' | 'EmbeddedLink' | 'Image' | 'OptIn' | 'ImageCarousel' | 'MediaPicker'

export interface ComponentSpec {
  readonly since: number
  readonly shape: Shape
  readonly input?: InputSpec
  /** Pairs of properties where the first may not exceed the second. */
  readonly minMax?: readonly (readonly [string, string, 'number' | 'date'])[]
  /** Counted towards a per-screen maximum. */
  readonly perScreen?: PerScreenGroup
}

export const PER_SCREEN_MAX: Readonly<Record<PerScreenGroup, number>> = {
  Footer: 1,
  EmbeddedLink: 2,
  Image: 3,
  OptIn: 5,
  ImageCarousel: 2,
  MediaPicker: 1,
}

export const MAX_COMPONENTS_PER_SCREEN = 50

export function requiredProps(shape: Shape): [string, number][] {
  const cached = requiredCache.get(shape)
  if (cached) return cached
  const list: [string, number][] = []
  for (const [key, spec] of Object.entries(shape.props)) if (spec.required !== undefined) list.push([key, spec.required])
  requiredCache.set(shape, list)
  return list
}

const requiredCache = new WeakMap<Shape, [string, number][]>()
