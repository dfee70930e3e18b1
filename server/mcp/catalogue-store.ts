import type { Database } from 'bun:sqlite'
import type { Catalogue, CatalogueTool } from './tool-catalogue.ts'

export type CatalogueStore = ReturnType<typeof catalogueStore>

/** The last tool listing of each mcp integration (deleted with it, by the foreign key). */
export function catalogueStore(db: Database) {
  const select = db.query<{ tools: string; listed_at: string }, [string]>('SELECT tools, listed_at FROM mcp_tool_catalogues WHERE integration_id = ?')
  const upsert = db.query(
    `INSERT INTO mcp_tool_catalogues (integration_id, tools, listed_at) VALUES ($id, $tools, $listed_at)
     ON CONFLICT (integration_id) DO UPDATE SET tools = excluded.tools, listed_at = excluded.listed_at`,
  )
  return {
    get(integrationId: string): Catalogue | null {
      const row = select.get(integrationId)
      return row ? { tools: JSON.parse(row.tools) as CatalogueTool[], listed_at: row.listed_at } : null
    },
    /** Stores the listing unless the integration is gone meanwhile (the foreign key refuses it). */
    save(integrationId: string, catalogue: Catalogue): void {
      try {
        upsert.run({ id: integrationId, tools: JSON.stringify(catalogue.tools), listed_at: catalogue.listed_at })
      } catch (error) {
        if (!String((error as Error).message).includes('FOREIGN KEY')) throw error
      }
    },
  }
}
