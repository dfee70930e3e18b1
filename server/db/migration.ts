import type { Database } from 'bun:sqlite'

export interface Migration {
  /** Strictly increasing; the file name carries the same number (0001_name.ts). */
  id: number
  name: string
  up: (db: Database) => void
}
