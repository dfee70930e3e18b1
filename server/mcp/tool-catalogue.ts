import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { McpConfig } from '../integrations/mcp-integration.ts'

/** One tool as the server described it, kept as listed (names and schemas are the server's). */
export interface CatalogueTool {
  name: string
  title: string | null
  description: string | null
  input_schema: Record<string, unknown>
  annotations: Record<string, unknown> | null
}

export interface Catalogue {
  tools: CatalogueTool[]
  listed_at: string
}

/** A server listing more is refused rather than held: the list is kept and shown whole. */
export const MAX_TOOLS = 10_000
/** Pages, in case a server hands out cursors forever. */
const MAX_PAGES = 1_000

/** Every tool of the server, following `nextCursor` page by page. */
export async function listAllTools(client: Client, timeoutMs: number): Promise<CatalogueTool[]> {
  const tools: CatalogueTool[] = []
  const seenCursors = new Set<string>()
  let cursor: string | undefined
  for (let page = 0; page < MAX_PAGES; page++) {
    const result = await client.listTools(cursor === undefined ? {} : { cursor }, { timeout: timeoutMs })
    for (const tool of result.tools) {
      tools.push({
        name: tool.name,
        title: tool.title ?? tool.annotations?.title ?? null,
        description: tool.description ?? null,
        input_schema: tool.inputSchema as Record<string, unknown>,
        annotations: (tool.annotations as Record<string, unknown> | undefined) ?? null,
      })
    }
    if (tools.length > MAX_TOOLS) throw new Error(`the server lists more than ${MAX_TOOLS} tools`)
    cursor = result.nextCursor
    if (cursor === undefined) return tools
    if (seenCursors.has(cursor)) throw new Error('the server repeated a pagination cursor')
    seenCursors.add(cursor)
  }
  throw new Error(`the server's tool list did not end after ${MAX_PAGES} pages`)
}

/** Why a tool is kept from callers: the deny list, the allow list, or (with `allow: null`) its annotations. */
export type ToolDenial = 'deny' | 'allow' | 'annotations'

/**
 * Whether the server says the tool is safe to offer unasked: read-only, or explicitly not
 * destructive. MCP's own defaults make a tool without annotations (or without these two
 * hints) a possibly destructive one, and so does Parley.
 */
export function isMarkedSafe(annotations: Record<string, unknown> | null | undefined): boolean {
  return annotations?.readOnlyHint === true || annotations?.destructiveHint === false
}

/**
 * Deny wins; an allow list allows the tools it names, destructive or not; `allow: null`
 * allows the tools the server marks as safe (isMarkedSafe), so a destructive or unannotated
 * tool starts denied until a person names it. Applied on every read, so a changed list or a
 * tool the server adds later cannot slip past it. `annotations` undefined: not known yet (a
 * call checks the lists before it reads the catalogue).
 */
export function toolDenial(rules: McpConfig['tools'], name: string, annotations?: Record<string, unknown> | null): ToolDenial | null {
  if (rules.deny.includes(name)) return 'deny'
  if (rules.allow !== null) return rules.allow.includes(name) ? null : 'allow'
  return annotations === undefined || isMarkedSafe(annotations) ? null : 'annotations'
}
