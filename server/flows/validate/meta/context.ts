/**
 * What the validator learns about the document while it walks it once, and shares between
 * the rules that run afterwards (references, actions, forms, routing).
 */
import { IssueCollector } from './issues.ts'
import type { DataType, JsonObject } from './json.ts'
import type { Expr } from './expressions.ts'
import type { ParsedRef } from './references.ts'
import type { ActionName, ActionSlot } from './spec.ts'
import { LATEST_VERSION, versionLabel } from './versions.ts'
import { MetaCode } from './codes.ts'

/** A field declared in a screen's `data`. */
export interface DataField {
  readonly type: DataType | null
  readonly schema: JsonObject
  readonly path: string
}

export interface InputFact {
  readonly name: string
  readonly type: string
  readonly path: string
  readonly node: JsonObject
  /** The Form it sits in, if any. */
  readonly form: FormFact | null
}

export interface FormFact {
  readonly name: string
  readonly path: string
  readonly node: JsonObject
  readonly inputs: InputFact[]
}

export interface ActionFact {
  readonly node: JsonObject
  readonly path: string
  readonly name: ActionName | null
  /** The component type that carries it (Footer, EmbeddedLink, ...). */
  readonly owner: string
  readonly property: string
  readonly slot: ActionSlot
  readonly screen: ScreenFacts
}

/** One `${…}` binding found in the document. */
export interface RefFact {
  readonly ref: ParsedRef
  readonly path: string
  /** The types the property accepts, when the binding is the whole value. */
  readonly expected: readonly DataType[] | null
  readonly screen: ScreenFacts
  /** The action whose payload holds it, if any. */
  readonly payloadOf: ActionName | null
}

export interface ConditionFact {
  readonly expression: Expr
  readonly path: string
}

export interface ScreenFacts {
  readonly index: number
  readonly path: string
  readonly node: JsonObject
  /** Null when missing or not a string. */
  readonly id: string | null
  readonly terminal: boolean
  /** Declared data fields; empty when the screen declares none. */
  readonly data: Map<string, DataField>
  readonly inputs: Map<string, InputFact>
  /** Every named component (inputs, Forms, NavigationLists), for `sensitive`. */
  readonly names: Set<string>
  readonly forms: FormFact[]
  readonly formsByName: Map<string, FormFact>
  readonly actions: ActionFact[]
  readonly refs: RefFact[]
  /** If conditions, type-checked once every binding can be resolved. */
  readonly conditions: ConditionFact[]
  /** A Footer anywhere on the screen, in any branch. */
  hasFooter: boolean
}

/** Where a value sits: the screen its bindings resolve against, and the component that owns it. */
export interface Site {
  readonly ctx: MetaContext
  /** Null outside screens (top-level keys): bindings are not read there. */
  readonly screen: ScreenFacts | null
  readonly owner: string
  /** Set inside an action's payload. */
  readonly payloadOf?: ActionName
}

export class MetaContext {
  readonly issues = new IssueCollector()
  readonly screens: ScreenFacts[] = []
  readonly screensById = new Map<string, ScreenFacts>()
  /** Numeric version ("6.1" → 601); the latest when the document's own is unusable. */
  version = LATEST_VERSION
  hasDataApiVersion = false

  atLeast(version: number): boolean {
    return this.version >= version
  }

  /** Reports `what` when the document's version is older than `since`; true when allowed. */
  requireVersion(since: number, path: string, what: string): boolean {
    if (this.version >= since) return true
    this.issues.error(
      path,
      MetaCode.REQUIRES_NEWER_FLOW_JSON_VERSION,
      `${what} needs Flow JSON version ${versionLabel(since)} or later, but this flow uses ${versionLabel(this.version)}. Raise "version" or remove it.`,
    )
    return false
  }
}
