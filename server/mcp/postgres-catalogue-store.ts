import type { SQL } from 'bun'
import { type CatalogueStore, parsedCatalogues } from './catalogue-store.ts'
import type { CatalogueTool } from './tool-catalogue.ts'

export function postgresCatalogueStore(sql: SQL): CatalogueStore {
  const parsed = parsedCatalogues()
  return {
    async get(integrationId) {
      // One round trip: the tools' text only when the kept listing is not the stored one.
      const keptAt = parsed.listedAtOf(integrationId)
      const [row] = await sql<{ listed_at: string; tools: string | null }[]>`
        SELECT listed_at, CASE WHEN listed_at = ${keptAt} THEN NULL ELSE tools END AS tools
        FROM mcp_tool_catalogues WHERE integration_id = ${integrationId}`
      if (!row) {
        parsed.forget(integrationId)
        return null
      }
      const kept = parsed.kept(integrationId, row.listed_at)
      if (kept) return parsed.remember(integrationId, kept)
      // The kept listing went meanwhile (another read dropped it): the text, read again.
      const tools = row.tools ?? (await sql<{ tools: string }[]>`SELECT tools FROM mcp_tool_catalogues WHERE integration_id = ${integrationId}`)[0]?.tools
      if (tools === undefined) return null
      return parsed.remember(integrationId, { tools: JSON.parse(tools) as CatalogueTool[], listed_at: row.listed_at })
    },
    async save(integrationId, catalogue) {
      // Nothing for an integration deleted meanwhile: an error would abort the unit's transaction on PostgreSQL.
      const saved = await sql`
        INSERT INTO mcp_tool_catalogues (integration_id, tools, listed_at)
        SELECT ${integrationId}, ${JSON.stringify(catalogue.tools)}, ${catalogue.listed_at} WHERE EXISTS (SELECT 1 FROM integrations WHERE id = ${integrationId})
        ON CONFLICT (integration_id) DO UPDATE SET tools = excluded.tools, listed_at = excluded.listed_at
        RETURNING integration_id`
      if (saved.length > 0) parsed.remember(integrationId, catalogue)
    },
  }
}
