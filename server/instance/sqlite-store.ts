import type { Database } from 'bun:sqlite'
import { settled } from '../db/settled.ts'
import type { InstanceStore } from './store.ts'

export function sqliteInstanceStore(db: Database): InstanceStore {
  const select = db.query<{ value: string }, [string]>('SELECT value FROM instance_settings WHERE key = ?')
  const upsert = db.query(
    'INSERT INTO instance_settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  )
  return {
    get: (key) => settled(() => select.get(key)?.value),
    set: (key, value) => settled(() => void upsert.run(key, value)),
  }
}
