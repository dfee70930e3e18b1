import type { Database } from 'bun:sqlite'

export type InstanceStore = ReturnType<typeof instanceStore>

/** Installation-wide facts, by key. */
export function instanceStore(db: Database) {
  const select = db.query<{ value: string }, [string]>('SELECT value FROM instance_settings WHERE key = ?')
  const upsert = db.query(
    'INSERT INTO instance_settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value',
  )
  return {
    get: (key: string) => select.get(key)?.value,
    set: (key: string, value: string) => void upsert.run(key, value),
  }
}
