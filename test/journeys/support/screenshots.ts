import { mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'

const root = join(import.meta.dir, '../../..')

/**
 * Where journey screenshots go: docs/journeys/ when PARLEY_SCREENSHOTS_TO_DOCS=1 (`npm run
 * screenshots:journeys`, which docs/ then shows), otherwise a folder under the system's temp
 * directory, so that an ordinary `npm test` still takes every picture (a step that cannot be
 * drawn fails) without rewriting files under version control.
 */
export const SCREENSHOT_DIR = process.env.PARLEY_SCREENSHOTS_TO_DOCS === '1' ? join(root, 'docs/journeys') : join(tmpdir(), 'parley-journeys')

/** Saves what `page` shows now (its viewport, as the person sees it) as NAME.png; returns the file. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true })
  const file = join(SCREENSHOT_DIR, `${name}.png`)
  await page.screenshot({ path: file, animations: 'disabled', caret: 'hide' })
  return file
}
