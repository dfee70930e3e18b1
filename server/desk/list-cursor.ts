import { invalidField } from '../http/api-error.ts'
import type { ListPosition } from './list-store.ts'
import type { View } from './model.ts'

/**
 * A list cursor names the view it was made for and the last row of the page, so a page is
 * never skipped or repeated when conversations are added meanwhile (no OFFSET). Opaque to
 * clients: base64url of a small JSON object.
 */
export function encodeCursor(view: View, position: ListPosition): string {
  return Buffer.from(JSON.stringify({ v: view, s: position.seq, h: position.waitingSince })).toString('base64url')
}

export function decodeCursor(view: View, cursor: string): ListPosition {
  let parsed: unknown
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'))
  } catch {
    throw invalidField('/cursor', 'is not a cursor this list made')
  }
  const value = parsed as { v?: unknown; s?: unknown; h?: unknown }
  if (typeof parsed !== 'object' || parsed === null || !Number.isSafeInteger(value.s)) throw invalidField('/cursor', 'is not a cursor this list made')
  if (value.v !== view) throw invalidField('/cursor', `was made for the view ${String(value.v)}, not ${view}`)
  if (view === 'waiting' && typeof value.h !== 'string') throw invalidField('/cursor', 'is not a cursor this list made')
  return view === 'waiting' ? { seq: value.s as number, waitingSince: value.h as string } : { seq: value.s as number }
}
