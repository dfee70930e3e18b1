import type { Database } from 'bun:sqlite'
import { settled } from '../db/settled.ts'
import { type CatalogueStore, parsedCatalogues } from './catalogue-store.ts'
import type { CatalogueTool } from './tool-catalogue.ts'

export function sqliteCatalogueStore(db: Database): CatalogueStore {
  const selectListedAt = db.query<{ listed_at: string }, [string]>('SELECT listed_at FROM mcp_tool_catalogues WHERE integration_id = ?')
  const select = db.query<{ tools: string; listed_at: string }, [string]>('SELECT tools, listed_at FROM mcp_tool_catalogues WHERE integration_id = ?')
  const upsert = db.query(
    `INSERT INTO mcp_tool_catalogues (integration_id, tools, listed_at) VALUES ($id, $tools, $listed_at)
     ON CONFLICT (integration_id) DO UPDATE SET tools = excluded.tools, listed_at = excluded.listed_at`,
  )
  const parsed = parsedCatalogues()

  return {
    get: (integrationId) =>
      settled(() => {
        const listedAt = selectListedAt.get(integrationId)?.listed_at
        if (listedAt === undefined) {
          parsed.forget(integrationId)
          return null
        }
        const kept = parsed.kept(integrationId, listedAt)
        if (kept) return parsed.remember(integrationId, kept)
        const row = select.get(integrationId)
        return row ? parsed.remember(integrationId, { tools: JSON.parse(row.tools) as CatalogueTool[], listed_at: row.listed_at }) : null
      }),
    save: (integrationId, catalogue) =>
      settled(() => {
        try {
          upsert.run({ id: integrationId, tools: JSON.stringify(catalogue.tools), listed_at: catalogue.listed_at })
          parsed.remember(integrationId, catalogue)
        } catch (error) {
          // A failed statement leaves SQLite's transaction (the open batch) as it was.
          if (!String((error as Error).message).includes('FOREIGN KEY')) throw error
        }
      }),
  }
}
