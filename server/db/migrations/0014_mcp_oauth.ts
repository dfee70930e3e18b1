import type { Migration } from '../migration.ts'

/**
 * OAuth for mcp integrations. `mcp_oauth_grants` holds what Parley learnt and was given for
 * one integration: the authorization server found by discovery, the client registered
 * dynamically (its secret included), and the tokens. `binding` is a digest of the settings
 * they were obtained under (url and auth): once those change the row no longer counts, so a
 * refresh finishing after a PATCH cannot bring old tokens back.
 *
 * `mcp_oauth_states` holds the authorization flows a person has started: the `state` is kept
 * only as its SHA-256 (a copied database cannot finish a flow), single-use and expiring, with
 * the PKCE verifier the callback needs.
 */
export const mcpOauth: Migration = {
  id: 14,
  name: 'mcp_oauth',
  up(db) {
    db.exec(`
      CREATE TABLE mcp_oauth_grants (
        integration_id TEXT PRIMARY KEY REFERENCES integrations(id) ON DELETE CASCADE,
        binding TEXT NOT NULL,
        discovery TEXT CHECK (discovery IS NULL OR json_valid(discovery)),
        client TEXT CHECK (client IS NULL OR json_valid(client)),
        tokens TEXT CHECK (tokens IS NULL OR json_valid(tokens)),
        needs_authorization INTEGER NOT NULL DEFAULT 0,
        -- The scope the server last asked for beyond what was granted (403 insufficient_scope).
        wanted_scope TEXT,
        updated_at TEXT NOT NULL
      );
      CREATE TABLE mcp_oauth_states (
        state_hash TEXT PRIMARY KEY,
        integration_id TEXT NOT NULL REFERENCES integrations(id) ON DELETE CASCADE,
        binding TEXT NOT NULL,
        code_verifier TEXT NOT NULL,
        expires_at INTEGER NOT NULL
      );
      CREATE INDEX mcp_oauth_states_integration ON mcp_oauth_states (integration_id);
    `)
  },
}
