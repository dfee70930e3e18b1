import { expect, test } from 'bun:test'
import { Glob } from 'bun'
import { readFileSync } from 'node:fs'
import { literalTexts } from './literal-texts.ts'

const APP = new URL('../../../app/src/', import.meta.url).pathname

/**
 * What reads as words but is not a text to translate: names of products and systems, a key's
 * name, a link's rel, a drag's data type, the CLI's own syntax. Keep it short: anything a
 * person reads in a sentence belongs in the catalogues.
 */
const ALLOWED = new Set([
  'Parley',
  'Esc',
  'Files',
  // desk/user-agent.ts: browsers and systems by their own names.
  'Edge', 'Opera', 'Samsung Internet', 'Firefox', 'Chrome (headless)', 'Chrome', 'Safari', 'Android', 'ChromeOS', 'Windows', 'Linux',
  // pages/LinkPage.tsx: the CLI command, with the translated "Your name" filled in.
  'npm run parley -- users create --email you@example.com --name "', './parley users create --email you@example.com --name "',
  // Commands and settings, as typed.
  'parley restore FILE', 'PARLEY_BACKUP_EVERY', '1d', 'PARLEY_BACKUP_KEEP',
  // Example values in placeholders: addresses and a model's id, the same in every language.
  'https://api.openai.com/v1', 'gpt-4o-mini', 'https://example.com/parley-webhook', 'https://mcp.example.com/mcp',
])

const checked = () => [...new Glob('**/*.{ts,tsx}').scanSync(APP)].filter((file) => !file.startsWith('i18n/')).sort()

test('the scanner finds each kind of literal text: JSX text, a seen attribute, a string that reads as words', () => {
  const sample = `
    const VIEWS = [{ id: 'waiting', name: 'Waiting' }]
    const hint = 'show or hide this list'
    export function Row(props: { open: boolean }) {
      if (props.open === 'Is Open') return null
      return (
        <div class="row selected now" title="Waiting since" aria-label={props.open ? 'Open it' : t('desk.close')}>
          Load more
          <img alt="A picture" src="/x.png" />
          {t('desk.waited', { time: 'Three minutes' })}
          <span>{'·'} ✕ 12</span>
        </div>
      )
    }`
  const found = literalTexts('Sample.tsx', sample).map(({ text, why }) => `${why}: ${text}`)
  expect(found).toEqual(['string: Waiting', 'string: show or hide this list', 'attribute: Waiting since', 'attribute: Open it', 'jsx text: Load more', 'attribute: A picture', 'string: Three minutes'])
  expect(literalTexts('Sample.tsx', sample, new Set(['Waiting', 'show or hide this list', 'Waiting since', 'Open it', 'Load more', 'A picture', 'Three minutes']))).toEqual([])
})

test('no user-facing text is written anywhere in the code of the app (desk, pages, shell, console, the flow builder): it comes from app/src/i18n/', () => {
  const files = checked()
  expect(files).toContain('desk/Desk.tsx')
  expect(files).toContain('pages/SignInPage.tsx')
  expect(files).toContain('console/flows/builder/panel/SayEditor.tsx')
  expect(files).toContain('console/flows/builder/model/starters.ts')
  const found = files.flatMap((file) => literalTexts(file, readFileSync(APP + file, 'utf8'), ALLOWED).map(({ line, text, why }) => `${file}:${line} ${why}: ${text}`))
  expect(found).toEqual([])
})
