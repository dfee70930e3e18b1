import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import { CallToolRequestSchema, type CallToolResult, ListToolsRequestSchema, type Tool } from '@modelcontextprotocol/sdk/types.js'

/** What every test server counts, so tests can tell reuse from reconnection. */
export interface ServerCounters {
  initializations: number
  toolCalls: number
  listCalls: number
  /** Headers of the last request, lower-cased names (to check auth and custom headers). */
  lastHeaders: Record<string, string>
  /** Requests an OAuth-protected server refused for a missing or unknown token. */
  refusedTokens: number
}

export interface ToolServerOptions {
  name?: string
  /** Extra tools `tool_0000`, `tool_0001`, ... to make a long, paginated list. */
  extraTools?: number
  /** tools/list page size (the SDK's own servers do not paginate; this one does). */
  pageSize?: number
  /** Other tools instead of the test set, answered by `answer`. */
  tools?: Tool[]
  answer?: (name: string, args: Record<string, unknown>) => CallToolResult
}

const BASE_TOOLS: Tool[] = [
  {
    name: 'echo',
    title: 'Echo',
    description: 'Says the text back',
    inputSchema: { type: 'object', properties: { text: { type: 'string', minLength: 1 } }, required: ['text'], additionalProperties: false },
    annotations: { readOnlyHint: true },
  },
  {
    name: 'add',
    description: 'Adds two numbers',
    inputSchema: {
      type: 'object',
      properties: { a: { type: 'number' }, b: { type: 'number' }, tags: { type: 'array', items: { type: 'string', pattern: '^(a+)+$' } } },
      required: ['a', 'b'],
    },
    annotations: { readOnlyHint: true },
  },
  { name: 'slow', description: 'Answers after ms milliseconds', inputSchema: { type: 'object', properties: { ms: { type: 'integer', minimum: 0 } }, required: ['ms'] }, annotations: { readOnlyHint: true } },
  { name: 'fail', description: 'Always reports an error', inputSchema: { type: 'object', properties: {} }, annotations: { readOnlyHint: true } },
  { name: 'big', description: 'Answers chars characters', inputSchema: { type: 'object', properties: { chars: { type: 'integer' } }, required: ['chars'] }, annotations: { readOnlyHint: true } },
  { name: 'orders.find', description: 'A dotted name', inputSchema: { type: 'object', properties: {} }, annotations: { readOnlyHint: true } },
  // Marked destructive: denied unless tools.allow names it.
  { name: 'delete_everything', description: 'Must never be offered', inputSchema: { type: 'object', properties: {} }, annotations: { destructiveHint: true } },
]

/**
 * One MCP server (the SDK's low-level Server, so that tools/list pages with cursors) with a
 * fixed set of tools; a new one per session or per stateless request, sharing `counters`.
 */
export function toolServer(counters: ServerCounters, options: ToolServerOptions = {}): Server {
  const tools = [...(options.tools ?? BASE_TOOLS)]
  for (let i = 0; i < (options.extraTools ?? 0); i++) {
    tools.push({ name: `tool_${String(i).padStart(4, '0')}`, description: `Generated tool ${i}`, inputSchema: { type: 'object', properties: {} }, annotations: { readOnlyHint: true } })
  }
  const pageSize = options.pageSize ?? 100
  const server = new Server({ name: options.name ?? 'parley-test-tools', version: '1.2.3' }, { capabilities: { tools: { listChanged: true } } })
  server.oninitialized = () => {
    counters.initializations++
  }
  server.setRequestHandler(ListToolsRequestSchema, (request) => {
    counters.listCalls++
    const start = request.params?.cursor ? Number(request.params.cursor) : 0
    const page = tools.slice(start, start + pageSize)
    const next = start + pageSize < tools.length ? String(start + pageSize) : undefined
    return { tools: page, ...(next ? { nextCursor: next } : {}) }
  })
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    counters.toolCalls++
    const args = (request.params.arguments ?? {}) as Record<string, unknown>
    if (options.answer) return options.answer(request.params.name, args)
    switch (request.params.name) {
      case 'echo':
        return { content: [{ type: 'text', text: String(args.text) }] }
      case 'add':
        return { content: [{ type: 'text', text: String(Number(args.a) + Number(args.b)) }], structuredContent: { sum: Number(args.a) + Number(args.b) } }
      case 'slow':
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Number(args.ms))
          extra.signal.addEventListener('abort', () => {
            clearTimeout(timer)
            resolve()
          })
        })
        return { content: [{ type: 'text', text: 'done' }] }
      case 'fail':
        return { content: [{ type: 'text', text: 'the order system is down' }], isError: true }
      case 'big':
        return { content: [{ type: 'text', text: 'H'.repeat(Number(args.chars) / 2) + 'T'.repeat(Number(args.chars) / 2) }] }
      default:
        return { content: [{ type: 'text', text: `called ${request.params.name}` }] }
    }
  })
  return server
}

export const newCounters = (): ServerCounters => ({ initializations: 0, toolCalls: 0, listCalls: 0, lastHeaders: {}, refusedTokens: 0 })
