import type { SQL } from 'bun'
import type { InstanceStore } from './store.ts'

export function postgresInstanceStore(sql: SQL): InstanceStore {
  return {
    async get(key) {
      const [row] = await sql<{ value: string }[]>`SELECT value FROM instance_settings WHERE key = ${key}`
      return row?.value
    },
    async set(key, value) {
      await sql`INSERT INTO instance_settings (key, value) VALUES (${key}, ${value}) ON CONFLICT (key) DO UPDATE SET value = excluded.value`
    },
  }
}
