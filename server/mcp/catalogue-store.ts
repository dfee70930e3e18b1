import type { Database } from 'bun:sqlite'
import type { Catalogue, CatalogueTool } from './tool-catalogue.ts'

export type CatalogueStore = ReturnType<typeof catalogueStore>

/** Parsed listings kept in memory; beyond this many, the least recently read is dropped. */
const CACHED_CATALOGUES = 1000

/**
 * The last tool listing of each mcp integration (deleted with it, by the foreign key). A tool
 * call reads it every time, so the parsed listing is kept while its `listed_at` is unchanged:
 * the call then costs one indexed lookup, and the schema objects stay the same ones, so their
 * compiled validators are reused.
 */
export function catalogueStore(db: Database) {
  const selectListedAt = db.query<{ listed_at: string }, [string]>('SELECT listed_at FROM mcp_tool_catalogues WHERE integration_id = ?')
  const select = db.query<{ tools: string; listed_at: string }, [string]>('SELECT tools, listed_at FROM mcp_tool_catalogues WHERE integration_id = ?')
  const upsert = db.query(
    `INSERT INTO mcp_tool_catalogues (integration_id, tools, listed_at) VALUES ($id, $tools, $listed_at)
     ON CONFLICT (integration_id) DO UPDATE SET tools = excluded.tools, listed_at = excluded.listed_at`,
  )
  const cache = new Map<string, Catalogue>()

  function remember(integrationId: string, catalogue: Catalogue): Catalogue {
    cache.delete(integrationId)
    cache.set(integrationId, catalogue)
    if (cache.size > CACHED_CATALOGUES) cache.delete(cache.keys().next().value as string)
    return catalogue
  }

  return {
    get(integrationId: string): Catalogue | null {
      const cached = cache.get(integrationId)
      const listedAt = selectListedAt.get(integrationId)?.listed_at
      if (listedAt === undefined) {
        cache.delete(integrationId)
        return null
      }
      if (cached?.listed_at === listedAt) return remember(integrationId, cached)
      const row = select.get(integrationId)
      return row ? remember(integrationId, { tools: JSON.parse(row.tools) as CatalogueTool[], listed_at: row.listed_at }) : null
    },
    /** Stores the listing unless the integration is gone meanwhile (the foreign key refuses it). */
    save(integrationId: string, catalogue: Catalogue): void {
      try {
        upsert.run({ id: integrationId, tools: JSON.stringify(catalogue.tools), listed_at: catalogue.listed_at })
        remember(integrationId, catalogue)
      } catch (error) {
        if (!String((error as Error).message).includes('FOREIGN KEY')) throw error
      }
    },
  }
}
