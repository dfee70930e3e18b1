/** Builders for small Flow JSON documents and short ways to look at a report. */
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { validateMetaFlow } from '../../../../server/flows/validate/meta.ts'

export type Json = Record<string, unknown>

/** "CODE /path" per finding, so a failing expectation shows every finding at once. */
export function errorsOf(document: unknown): string[] {
  return validateMetaFlow(document).errors.map((issue) => `${issue.code} ${issue.path}`)
}

export function warningsOf(document: unknown): string[] {
  return validateMetaFlow(document).warnings.map((issue) => `${issue.code} ${issue.path}`)
}

export function flow(screens: Json[], extra: Json = {}, version = '7.0'): Json {
  return { version, screens, ...extra }
}

export function screen(id: string, children: unknown[], extra: Json = {}): Json {
  return { id, layout: { type: 'SingleColumnLayout', children }, ...extra }
}

/** A terminal screen: its children, then a Footer that completes the flow. */
export function end(id: string, children: unknown[] = [], extra: Json = {}): Json {
  return screen(id, [...children, completeFooter()], { terminal: true, ...extra })
}

/** A one-screen flow showing `children` above a completing Footer. */
export function single(children: unknown[], version = '7.0', screenExtra: Json = {}): Json {
  return flow([end('ONLY', children, screenExtra)], {}, version)
}

export const completeFooter = (payload: Json = {}): Json => ({ type: 'Footer', label: 'Done', 'on-click-action': { name: 'complete', payload } })

export const navigateFooter = (to: string, payload: Json = {}): Json => ({
  type: 'Footer',
  label: 'Next',
  'on-click-action': { name: 'navigate', next: { type: 'screen', name: to }, payload },
})

export const navigateLink = (to: string, payload: Json = {}): Json => ({
  type: 'EmbeddedLink',
  text: 'Go on',
  'on-click-action': { name: 'navigate', next: { type: 'screen', name: to }, payload },
})

export const body = (text: unknown): Json => ({ type: 'TextBody', text })
export const textInput = (name: string, extra: Json = {}): Json => ({ type: 'TextInput', name, label: 'Label', ...extra })
export const form = (name: string, children: unknown[], extra: Json = {}): Json => ({ type: 'Form', name, children, ...extra })
export const options = (count: number, extra: Json = {}): Json[] => Array.from({ length: count }, (_, i) => ({ id: `o${i}`, title: `Option ${i}`, ...extra }))

/** A chain of screens A → B → ... where the last one completes. */
export function chain(ids: string[], version = '7.0'): Json {
  return flow(
    ids.map((id, i) => (i === ids.length - 1 ? end(id) : screen(id, [navigateFooter(ids[i + 1] as string)]))),
    {},
    version,
  )
}

export function clone<T>(value: T): T {
  return structuredClone(value)
}

export const FIXTURES = join(import.meta.dir, '../../../fixtures/whatsapp-flows')

/** Every example of the provider's samples: [file, name, document]. */
export function examples(): [string, string, Json][] {
  const found: [string, string, Json][] = []
  for (const file of readdirSync(FIXTURES).filter((name) => name.endsWith('.json')).sort()) {
    const byName = JSON.parse(readFileSync(join(FIXTURES, file), 'utf8')) as Record<string, Json>
    for (const [name, document] of Object.entries(byName)) found.push([file, name, document])
  }
  return found
}
