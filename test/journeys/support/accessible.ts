import { readFileSync } from 'node:fs'
import type { Frame, Page } from 'playwright-core'

/** The WCAG 2.1 A and AA rules axe-core tags (docs/accessibility.md). */
export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']

/** Rules turned off, each with its reason written in docs/accessibility.md ("Rule decisions"). */
const RULES_OFF: Record<string, { enabled: false }> = {}

const AXE_SOURCE = readFileSync(Bun.resolveSync('axe-core/axe.min.js', import.meta.dir), 'utf8')

export interface Violation {
  rule: string
  impact: string
  help: string
  targets: string[]
}

/**
 * axe-core's WCAG 2.1 A and AA violations on what `page` shows now, in every frame of it (the
 * widget builder's preview is a frame; the widget's open shadow root is part of its page). The
 * script goes in through `evaluate` (the DevTools protocol), so the pages' own Content Security
 * Policy, which allows no inline script, stays as shipped.
 */
export async function axeViolations(page: Page): Promise<Violation[]> {
  const found: Violation[] = []
  for (const frame of page.frames()) {
    if (frame.isDetached() || (frame !== page.mainFrame() && frame.url() === 'about:blank')) continue
    found.push(...(await frameViolations(frame)).map((violation) => (frame === page.mainFrame() ? violation : { ...violation, targets: violation.targets.map((target) => `${frameName(frame)} ${target}`) })))
  }
  return found
}

/** A frame that navigates while it is checked (the builder's preview redraws as settings are typed) is checked again once loaded. */
async function frameViolations(frame: Frame, tries = 3): Promise<Violation[]> {
  try {
    return await runAxe(frame)
  } catch (error) {
    if (tries <= 1 || !String(error).includes('Execution context was destroyed')) throw error
    await frame.waitForLoadState('load')
    return await frameViolations(frame, tries - 1)
  }
}

async function runAxe(frame: Frame): Promise<Violation[]> {
  if (!(await frame.evaluate(() => 'axe' in window))) await frame.evaluate(AXE_SOURCE)
  return await frame.evaluate(
    async ({ tags, rules }) => {
      const axe = (window as unknown as { axe: { run: (context: unknown, options: unknown) => Promise<{ violations: { id: string; impact?: string | null; help: string; nodes: { target: unknown[]; any: { message: string }[]; all: { message: string }[]; none: { message: string }[] }[] }[] }> } }).axe
      const result = await axe.run(document, { runOnly: { type: 'tag', values: tags }, rules, iframes: false, resultTypes: ['violations'] })
      return result.violations.map((violation) => ({
        rule: violation.id,
        impact: violation.impact ?? 'unknown',
        help: violation.help,
        targets: violation.nodes.map((node) => {
          const target = node.target.map((part) => (Array.isArray(part) ? part.join(' >>> ') : String(part))).join(' >>> ')
          const why = [...node.any, ...node.all, ...node.none][0]?.message
          return why ? `${target}: ${why}` : target
        }),
      }))
    },
    { tags: WCAG_TAGS, rules: RULES_OFF },
  )
}

const frameName = (frame: Frame) => `[frame ${new URL(frame.url()).pathname}]`

/** The violations as a reader wants them in a failed test: one rule a line, then its elements. */
export function describeViolations(violations: Violation[]): string {
  return violations.map((violation) => `- ${violation.rule} (${violation.impact}): ${violation.help}\n${violation.targets.map((target) => `    ${target}`).join('\n')}`).join('\n')
}

/** Fails, naming each rule, its impact and the elements, when axe finds a WCAG 2.1 A/AA violation on `screen`. */
export async function expectAccessible(page: Page, screen: string): Promise<void> {
  const violations = await axeViolations(page)
  if (violations.length === 0) return
  throw new Error(`${screen}: ${violations.length} accessibility rule(s) violated (axe-core, WCAG 2.1 A/AA):\n${describeViolations(violations)}`)
}
