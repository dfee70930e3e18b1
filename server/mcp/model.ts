import { type Static, t } from 'elysia'
import { Timestamp } from '../http/common-model.ts'

export const McpToolParams = t.Object({
  chatbot_id: t.String({ description: 'chatbot ULID' }),
  integration_id: t.String({ description: 'mcp integration ULID' }),
  name: t.String({ description: "the tool's name as the server lists it (URL-encoded)" }),
})

const ToolView = t.Object({
  name: t.String(),
  title: t.Union([t.String(), t.Null()]),
  description: t.Union([t.String(), t.Null()]),
  input_schema: t.Record(t.String(), t.Unknown(), { description: "the server's JSON Schema of the arguments" }),
  annotations: t.Union([t.Record(t.String(), t.Unknown()), t.Null()]),
  allowed: t.Boolean({ description: 'false: the integration keeps it from callers (denied_by says why)' }),
  denied_by: t.Union([t.Literal('deny'), t.Literal('allow'), t.Literal('annotations'), t.Null()], {
    description:
      'why it is not allowed: deny (in tools.deny), allow (tools.allow is a list without it), annotations (tools.allow is null and the server does not mark it read-only or non-destructive: name it in tools.allow to offer it); null when allowed',
  }),
})
export type ToolView = Static<typeof ToolView>

export const McpFailureSchema = t.Object(
  {
    kind: t.Union(
      [
        t.Literal('dns'),
        t.Literal('refused'),
        t.Literal('tls'),
        t.Literal('timeout'),
        t.Literal('unauthorized'),
        t.Literal('not_mcp'),
        t.Literal('protocol_error'),
        t.Literal('blocked_address'),
      ],
      { description: 'what went wrong, for a person to act on' },
    ),
    message: t.String(),
    http_status: t.Union([t.Integer(), t.Null()], { description: "the status of the server's last answer, if any" }),
    www_authenticate: t.Optional(t.Union([t.String(), t.Null()], { description: 'unauthorized: the header the server answered with' })),
    resource_metadata: t.Optional(
      t.Union([t.Record(t.String(), t.Unknown()), t.Null()], { description: "unauthorized: the server's OAuth protected-resource metadata (RFC 9728)" }),
    ),
    needs_authorization: t.Optional(t.Boolean({ description: 'oauth: true when a person must authorize Parley (POST .../oauth/start): no tokens yet, or a refresh failed' })),
  },
  { description: 'why the server could not be used' },
)

export const McpTestResult = t.Union(
  [
    t.Object({
      ok: t.Literal(true),
      transport_used: t.Union([t.Literal('streamable-http'), t.Literal('sse')]),
      protocol_version: t.Union([t.String(), t.Null()]),
      server: t.Object({ name: t.String(), version: t.String() }),
      capabilities: t.Record(t.String(), t.Unknown()),
      tools: t.Array(ToolView),
      latency_ms: t.Number({ description: 'connecting, initializing and listing every tool' }),
    }),
    t.Object({ ok: t.Literal(false), failure: McpFailureSchema, latency_ms: t.Number() }),
  ],
  {
    examples: [
      {
        ok: true,
        transport_used: 'streamable-http',
        protocol_version: '2025-11-25',
        server: { name: 'orders', version: '1.4.0' },
        capabilities: { tools: { listChanged: true } },
        tools: [{ name: 'find_order', title: 'Find an order', description: 'Looks an order up by its number', input_schema: { type: 'object', properties: { number: { type: 'string' } }, required: ['number'] }, annotations: { readOnlyHint: true }, allowed: true, denied_by: null }],
        latency_ms: 41.7,
      },
      { ok: false, failure: { kind: 'refused', message: 'the server refused the connection (nothing listens on that port?)', http_status: null }, latency_ms: 2.1 },
    ],
  },
)
export type McpTestResult = Static<typeof McpTestResult>

export const McpToolList = t.Object({
  tools: t.Array(ToolView),
  listed_at: Timestamp,
})
export type McpToolList = Static<typeof McpToolList>

export const McpToolCall = t.Object(
  { arguments: t.Optional(t.Record(t.String(), t.Unknown(), { description: "checked against the tool's input schema before the call" })) },
  { additionalProperties: false, examples: [{ arguments: { number: 'A-1042' } }] },
)
export type McpToolCall = Static<typeof McpToolCall>

export const McpToolResult = t.Object(
  {
    content: t.Array(t.Record(t.String(), t.Unknown()), { description: 'MCP content blocks (text, image, audio, resource_link, resource)' }),
    structured_content: t.Unknown({ description: "the tool's structured result, or null" }),
    is_error: t.Boolean({ description: 'true: the tool ran and reported an error' }),
    truncated: t.Boolean({ description: 'true: the output was over the size limit and was cut (a marker says where)' }),
    latency_ms: t.Number(),
  },
  { examples: [{ content: [{ type: 'text', text: 'Order A-1042: shipped' }], structured_content: null, is_error: false, truncated: false, latency_ms: 12.4 }] },
)
export type McpToolResult = Static<typeof McpToolResult>
