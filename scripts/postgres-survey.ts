#!/usr/bin/env bun
/**
 * bun scripts/postgres-survey.ts: what moving each domain behind the store seam touches, counted
 * from the code as it is (docs/postgres-plan.md quotes a run; run it again after a merge).
 *
 * Per file under server/ (migrations and the PostgreSQL track left out): statements run on
 * bun:sqlite, group-commit and transaction sites, rowid, max()+1 numbering, FTS5 MATCH, JSON
 * functions and other SQLite-only SQL; per store, the files that import it (what turns async
 * with it). `--markdown` prints the tables as the plan has them.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

const root = new URL('..', import.meta.url).pathname
const server = join(root, 'server')

/** Counted everywhere: where code relies on one synchronous connection. */
const ANYWHERE = ['batch.run', 'batch other', 'transaction', 'row cache']
const PATTERNS: Record<string, RegExp> = {
  'SQL texts': /\bdb\.(query|prepare|exec)\(|\bdb\.query</g,
  statements: /\.(run|get|all|values)\(|\bdb\.exec\(/g,
  'batch.run': /\bbatch\.run\(/g,
  'batch other': /\bbatch\.(soon|outcomeSince|stamp|flush|hold)\(/g,
  transaction: /\.transaction\(|\binTransaction\b/g,
  rowid: /\browid\b/g,
  'max()+1': /max\([^)]*\)\s*,\s*0\)\s*\+\s*1|max\([^)]*\)\s*\+\s*1/g,
  'FTS5 MATCH': /\bMATCH\b/g,
  'json_*': /\bjson_(extract|each|object|array|valid|set|insert|remove|group_array)\(|\bjson\(/g,
  'SQLite-only': /COLLATE NOCASE|INDEXED BY|INSERT OR (IGNORE|REPLACE)|\bstrftime\(|\bjulianday\(|\biif\(|\bglob\b|PRAGMA/g,
  'row cache': /\bRowCache\b/g,
}

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    if (statSync(path).isDirectory()) return path.endsWith('/db/migrations') || path.endsWith('/db/postgres') ? [] : files(path)
    return path.endsWith('.ts') ? [path] : []
  })
}

const all = files(server)
const rows = all
  .map((path) => {
    const text = readFileSync(path, 'utf8')
    const sqlite = text.includes("from 'bun:sqlite'")
    const counts = Object.fromEntries(
      // SQL is only in files that import bun:sqlite (stores): elsewhere the SQL patterns would match JavaScript.
      Object.entries(PATTERNS).map(([name, pattern]) => [name, !ANYWHERE.includes(name) && !sqlite ? 0 : (text.match(pattern) ?? []).length]),
    )
    return { file: relative(root, path), sqlite, counts }
  })
  .filter((row) => row.sqlite || Object.values(row.counts).some((n) => n > 0))

/** A store: a file under server/ that speaks SQL (imports bun:sqlite) and is not the database plumbing. */
const stores = rows.filter((row) => row.sqlite && !row.file.startsWith('server/db/') && row.file !== 'server/app.ts' && row.file !== 'server/stores.ts')
/** The files that import `file` (type imports included), resolved from their relative import paths. */
const importers = (file: string) =>
  all
    .filter((other) => [...readFileSync(other, 'utf8').matchAll(/from '(\.[^']+)'/g)].some((match) => relative(root, resolve(dirname(other), match[1] as string)) === file))
    .map((other) => relative(root, other))

const columns = Object.keys(PATTERNS)
const markdown = process.argv.includes('--markdown')
const total = (name: string) => rows.reduce((sum, row) => sum + (row.counts[name] ?? 0), 0)

if (markdown) {
  console.log(`| file | ${columns.join(' | ')} |`)
  console.log(`|---|${columns.map(() => '---:').join('|')}|`)
  for (const row of rows) console.log(`| ${row.file} | ${columns.map((c) => row.counts[c] || '').join(' | ')} |`)
  console.log(`| **total** | ${columns.map((c) => `**${total(c)}**`).join(' | ')} |`)
  console.log('')
  console.log('| store | SQL texts | runs | importers (turn async with it) | their importers (may turn async next) |')
  console.log('|---|---:|---:|---|---|')
  const short = (files: string[]) => `${files.length}: ${files.map((u) => u.replace(/^server\//, '')).join(', ')}`
  for (const store of stores) {
    const users = importers(store.file).filter((u) => u !== 'server/app.ts' && u !== 'server/stores.ts')
    const next = [...new Set(users.flatMap(importers))].filter((u) => u !== 'server/app.ts' && !users.includes(u) && u !== store.file).sort()
    console.log(`| ${store.file} | ${store.counts['SQL texts']} | ${store.counts.statements} | ${short(users)} | ${short(next)} |`)
  }
} else {
  for (const row of rows) console.log(row.file.padEnd(52), columns.map((c) => `${c}=${row.counts[c]}`).filter((s) => !s.endsWith('=0')).join(' '))
  console.log('total'.padEnd(52), columns.map((c) => `${c}=${total(c)}`).join(' '))
  console.log(`${stores.length} stores`)
}
