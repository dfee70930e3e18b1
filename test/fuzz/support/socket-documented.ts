import { readFileSync } from 'node:fs'
import { join } from 'node:path'

const page = readFileSync(join(import.meta.dir, '../../../docs/widget-protocol.md'), 'utf8')

function between(start: string, end: string): string {
  const from = page.indexOf(start)
  const to = page.indexOf(end, from)
  if (from < 0 || to < 0) throw new Error(`docs/widget-protocol.md has no section from "${start}" to "${end}"`)
  return page.slice(from, to)
}

/**
 * What docs/widget-protocol.md promises a client can receive, read from its tables so that a
 * test holds the server to the page: the close codes of §6 and the `error` codes.
 */
export const documented = {
  closeCodes: new Set([...between('## 6. Close codes', '## 7.').matchAll(/^\| (\d{4}) \|/gm)].map((match) => Number(match[1]))),
  errorCodes: new Set([...between('Error codes:', 'A chat message is').matchAll(/^\| `([a-z_]+)` \|/gm)].map((match) => match[1]!)),
}
