import type { Catalogue } from './tool-catalogue.ts'

/**
 * The last tool listing of each mcp integration (deleted with it, by the foreign key;
 * docs/architecture.md, "The store seam"). A tool call reads it every time, so each side keeps
 * the parsed listing while its `listed_at` is unchanged (`parsedCatalogues`): the call then
 * costs one indexed lookup, and the schema objects stay the same ones, so their compiled
 * validators are reused.
 */
export interface CatalogueStore {
  get(integrationId: string): Promise<Catalogue | null>
  /** Stores the listing unless the integration is gone meanwhile. */
  save(integrationId: string, catalogue: Catalogue): Promise<void>
}

/** Parsed listings kept in memory; beyond this many, the least recently read is dropped. */
const CACHED_CATALOGUES = 1000

/** The parsed listings a store keeps, by integration, least recently read first. */
export function parsedCatalogues() {
  const cache = new Map<string, Catalogue>()
  return {
    /** The kept listing, if it was listed at `listedAt`. */
    kept(integrationId: string, listedAt: string): Catalogue | undefined {
      const cached = cache.get(integrationId)
      return cached?.listed_at === listedAt ? cached : undefined
    },
    /** When the kept listing was listed, or null when none is kept. */
    listedAtOf: (integrationId: string): string | null => cache.get(integrationId)?.listed_at ?? null,
    remember(integrationId: string, catalogue: Catalogue): Catalogue {
      cache.delete(integrationId)
      cache.set(integrationId, catalogue)
      if (cache.size > CACHED_CATALOGUES) cache.delete(cache.keys().next().value as string)
      return catalogue
    },
    forget: (integrationId: string) => void cache.delete(integrationId),
  }
}
