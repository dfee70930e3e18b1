import { TEMPLATE } from '../../../flow-language/template-syntax.ts'
import { pointer } from '../validation-issue.ts'
import { type DefinitionView, isRecord, objectsIn } from './definition-view.ts'
import type { Findings } from './findings.ts'

const CONTACT_FIELD = /^contact\.[A-Za-z0-9_]+$/

/** What a capture kind stores, and the variable types that can hold it. */
const CAPTURE_FITS: Record<string, readonly string[]> = {
  text: ['string'],
  email: ['string'],
  phone: ['string'],
  number: ['number', 'string'],
}

/** What each capture kind stores, in the words of a finding. */
const CAPTURED: Record<string, string> = { text: 'text', email: 'an e-mail address', phone: 'a phone number', number: 'a number' }

/**
 * Variables are declared before use: templates and `capture.var` name declared ones, a
 * capture stores into a variable of a fitting type, a default has the declared type, and a
 * declared variable nobody sets or reads is worth a warning.
 */
export function checkVariables(view: DefinitionView, findings: Findings): void {
  const used = new Set<string>()
  for (const { text, path } of [...visitorTexts(view), ...agentInstructions(view)]) {
    for (const [, inner = ''] of text.matchAll(TEMPLATE)) {
      if (CONTACT_FIELD.test(inner)) continue
      if (view.variables.has(inner)) {
        used.add(inner)
        continue
      }
      const message = inner.includes('.')
        ? `{{${inner}}} is filled with nothing: the only dotted names are contact.KEY`
        : `{{${inner}}} names no declared variable; declare it under /variables, or use {{contact.KEY}} for a contact detail`
      findings.error(path, 'undeclared_variable', message)
    }
  }
  for (const { path, state } of view.states) {
    if (!isRecord(state.capture) || typeof state.capture.var !== 'string') continue
    const name = state.capture.var
    used.add(name)
    const declaration = view.variables.get(name)
    if (!declaration) {
      if (!findings.hasErrorAt(`${path}/capture/var`)) {
        findings.error(`${path}/capture/var`, 'undeclared_variable', `"${name}" names no declared variable; declare it under /variables`)
      }
      continue
    }
    const fits = typeof state.capture.as === 'string' ? CAPTURE_FITS[state.capture.as] : undefined
    if (fits && typeof declaration.type === 'string' && !fits.includes(declaration.type)) {
      findings.error(
        `${path}/capture/as`,
        'capture_type_mismatch',
        `captures ${CAPTURED[String(state.capture.as)] ?? 'a value'} into "${name}", which is declared as ${declaration.type}`,
      )
    }
  }
  // A branch reads its variable (branch-rules.ts tells an undeclared one).
  for (const { state } of view.states) for (const { value } of objectsIn(state.branch)) if (typeof value.var === 'string') used.add(value.var)
  for (const { name, path } of exitCaptures(view)) {
    if (view.variables.has(name)) used.add(name)
    else findings.error(path, 'undeclared_variable', `"${name}" names no declared variable; declare it under /variables`)
  }
  for (const [name, declaration] of view.variables) {
    const path = pointer('variables', name)
    const { type, default: fallback } = declaration
    if (fallback !== undefined && typeof type === 'string' && typeof fallback !== type && !findings.hasErrorAt(`${path}/default`)) {
      findings.error(`${path}/default`, 'wrong_type', `must be a ${type}, like the variable`)
    }
    if (!used.has(name)) {
      findings.warning(path, 'unused_variable', `variable "${name}" is never captured nor used in a {{template}} or a branch`)
    }
  }
}

/** An agent state's instructions: the model reads them with templates filled. */
function* agentInstructions(view: DefinitionView): Generator<{ text: string; path: string }> {
  for (const { state, path } of view.states) {
    if (isRecord(state.agent) && typeof state.agent.instructions === 'string') yield { text: state.agent.instructions, path: `${path}/agent/instructions` }
  }
}

/** The variables an agent's exits let the model fill. */
function* exitCaptures(view: DefinitionView): Generator<{ name: string; path: string }> {
  for (const { state, path } of view.states) {
    if (!isRecord(state.agent)) continue
    for (const { value: exit, index } of objectsIn(state.agent.exits)) {
      if (!Array.isArray(exit.capture)) continue
      for (const [at, name] of exit.capture.entries()) {
        if (typeof name === 'string') yield { name, path: `${path}/agent/exits/${index}/capture/${at}` }
      }
    }
  }
}

/** Every text the bot sends, where templates are filled in. */
export function* visitorTexts(view: DefinitionView): Generator<{ text: string; path: string }> {
  const text = (value: unknown, path: string) => (typeof value === 'string' ? [{ text: value, path }] : [])
  if (view.root) yield* text(view.root.fallback, '/fallback')
  for (const entry of view.states) {
    for (const { message, path } of view.messages(entry)) {
      yield* text(message.text, `${path}/text`)
      yield* text(message.button, `${path}/button`)
      for (const { value, index } of objectsIn(message.buttons)) yield* text(value.title, `${path}/buttons/${index}/title`)
      for (const { value: section, index: s } of objectsIn(message.sections)) {
        yield* text(section.title, `${path}/sections/${s}/title`)
        for (const { value: row, index: r } of objectsIn(section.rows)) {
          yield* text(row.title, `${path}/sections/${s}/rows/${r}/title`)
          yield* text(row.description, `${path}/sections/${s}/rows/${r}/description`)
        }
      }
      if (isRecord(message.media)) {
        yield* text(message.media.caption, `${path}/media/caption`)
        yield* text(message.media.filename, `${path}/media/filename`)
      }
      if (isRecord(message.meta_flow)) yield* text(message.meta_flow.cta, `${path}/meta_flow/cta`)
    }
    const { capture, handoff } = entry.state
    if (isRecord(capture)) yield* text(capture.retry, `${entry.path}/capture/retry`)
    if (isRecord(handoff)) yield* text(handoff.text, `${entry.path}/handoff/text`)
  }
}
