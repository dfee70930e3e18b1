import { api, query } from '../api.ts'
import type { Page, User } from '../types.ts'

/** What the console reads and writes, as the developer API answers it (docs/api.md, OpenAPI). */

export interface Chatbot {
  id: string
  name: string
  entry_flow_id: string | null
  llm: LlmSettings | null
  created_at: string
  updated_at: string | null
}

export interface LlmSettings {
  base_url: string
  model: string
  temperature?: number
  api_key?: string | null
  max_tokens?: number
  call_deadline_ms?: number
  run_deadline_ms?: number
}

export interface Activity {
  days: { date: string; conversations: number; agent_tokens: number; agent_failures?: number }[]
  open_handoffs: number
  waiting: number
  ratings: { count: number; good: number; neutral: number; bad: number; csat: number | null }
  agent_usage: { runs: number; prompt_tokens: number; completion_tokens: number; total_tokens: number }
  recent_agent_failures?: AgentFailure[]
}

/** A failed LLM agent run, as the overview lists it: why, in Parley's words. */
export interface AgentFailure {
  conversation_id: string
  at: string
  state: string
  kind: string
  message: string
  http_status: number | null
}

/** The model settings test (POST /chatbots/{id}/llm/test). */
export type ModelTest =
  | { ok: true; model: string; answer: string | null; latency_ms: number }
  | { ok: false; failure: { kind: string; message: string; http_status: number | null }; latency_ms: number }

export interface FlowItem {
  id: string
  chatbot_id: string
  name: string
  type: 'conversation' | 'meta'
  status: 'draft' | 'published'
  created_at: string
}

export interface Flow extends FlowItem {
  flow: Record<string, unknown>
  updated_at: string | null
  published_at: string | null
  published_version: number | null
  has_unpublished_changes: boolean
}

export interface Issue {
  path: string
  code: string
  message: string
}

export interface Validation {
  valid: boolean
  errors: Issue[]
  warnings: Issue[]
}

export interface ApiKey {
  prefix: string
  name: string
  created_at: string
  revoked_at: string | null
  last_used_at: string | null
}

export interface Operations {
  version: string
  started_at: string
  uptime_seconds: number
  database: { engine: 'sqlite' | 'postgresql'; location: string }
  database_bytes: number
  wal_bytes: number
  backups: ScheduledBackups
}

export interface ScheduledBackups {
  scheduled: boolean
  dir: string | null
  every_seconds: number | null
  keep: number | null
  files: { name: string; bytes: number; created_at: string; age_seconds: number }[]
  running: boolean
  next_at: string | null
  last_failure: { at: string; error: string } | null
}

export type WidgetConfig = Record<string, unknown>

export interface WebIntegration {
  id: string
  name: string
  is_active: boolean
  greeting_message: string | null
  config: {
    widget_key: string
    allowed_domains: string[]
    widget_config: WidgetConfig
    identity_secret: string | null
    default_country: string | null
  }
}

export interface IntegrationItem {
  id: string
  type: 'web' | 'rest-api' | 'chatapp' | 'mcp'
  name: string
  is_active: boolean
}

export interface RestApiIntegration {
  id: string
  name: string
  is_active: boolean
  config: { webhook_url: string; signing_secret: string }
  signing_secret?: string
}

export interface Delivery {
  id: string
  type: string
  conversation_id: string
  status: 'pending' | 'delivered' | 'failed'
  attempts: number
  next_attempt_at: string | null
  last_attempt_at: string | null
  last_status_code: number | null
  last_error: string | null
  url: string
  created_at: string
  finished_at: string | null
  payload: unknown
}

export interface McpIntegration {
  id: string
  name: string
  is_active: boolean
  config: {
    url: string
    tools: { allow: string[] | null; deny: string[] }
    timeout_ms: number
    auth?: { type: string; grant?: string; status?: 'authorized' | 'needs_authorization' | 'not_connected'; token_expires_at?: string | null }
  }
}

export interface ChatappIntegration {
  id: string
  name: string
  is_active: boolean
  config: { phone_number_id: string; access_token: string; verify_token: string; app_secret: string | null; callback_url: string }
}

export interface ChatappHandshake {
  verified_at: string | null
  refused_at: string | null
  refusal: string | null
}

export interface ChatappDelivery {
  id: string
  type: string
  conversation_id: string
  status: 'pending' | 'accepted' | 'failed'
  attempts: number
  last_status_code: number | null
  last_error: string | null
  provider_message_id: string | null
  provider_status: 'sent' | 'delivered' | 'read' | 'played' | 'failed' | null
  adaptation: string | null
  created_at: string
  finished_at: string | null
}

export interface OneTimeLink {
  url: string
  purpose: 'setup' | 'invite' | 'reset'
  expires_at: string
}

export interface McpTool {
  name: string
  title: string | null
  description: string | null
  input_schema: Record<string, unknown>
  annotations?: Record<string, unknown> | null
  allowed: boolean
  /** Why it is not allowed: tools.deny, tools.allow without it, or (allow null) its server does not mark it safe. */
  denied_by?: 'deny' | 'allow' | 'annotations' | null
}

export type McpTest =
  | { ok: true; server: { name: string; version: string }; tools: McpTool[]; latency_ms: number }
  | { ok: false; failure: { kind: string; message: string }; latency_ms: number }

const bot = (id: string) => `/chatbots/${id}`

export const consoleApi = {
  chatbots: () => api<Page<Chatbot>>('GET', `/chatbots${query({ limit: 200 })}`),
  chatbot: (id: string) => api<Chatbot>('GET', bot(id)),
  createChatbot: (name: string) => api<Chatbot>('POST', '/chatbots', { name }),
  updateChatbot: (id: string, body: Partial<Pick<Chatbot, 'name' | 'entry_flow_id' | 'llm'>>) => api<Chatbot>('PATCH', bot(id), body),
  deleteChatbot: (id: string) => api<void>('DELETE', bot(id)),
  activity: (id: string) => api<Activity>('GET', `${bot(id)}/activity`),
  testModel: (id: string, body?: { base_url: string; model: string; api_key?: string }) => api<ModelTest>('POST', `${bot(id)}/llm/test`, body),

  flows: (id: string) => api<Page<FlowItem>>('GET', `${bot(id)}/flows${query({ limit: 200 })}`),
  flow: (id: string, flowId: string) => api<Flow>('GET', `${bot(id)}/flows/${flowId}`),
  createFlow: (id: string, body: { name: string; type: 'conversation' | 'meta'; flow?: unknown }) => api<Flow>('POST', `${bot(id)}/flows`, body),
  saveFlow: (id: string, flowId: string, body: { name?: string; flow?: unknown }) => api<Flow>('PATCH', `${bot(id)}/flows/${flowId}`, body),
  deleteFlow: (id: string, flowId: string) => api<void>('DELETE', `${bot(id)}/flows/${flowId}`),
  validateFlow: (id: string, flowId: string) => api<Validation>('POST', `${bot(id)}/flows/${flowId}/validate`),
  publishFlow: (id: string, flowId: string) => api<{ published_at: string }>('POST', `${bot(id)}/flows/${flowId}/publish`),
  versions: (id: string, flowId: string) => api<Page<{ version: number; published_at: string }>>('GET', `${bot(id)}/flows/${flowId}/versions`),
  version: (id: string, flowId: string, version: number) => api<{ version: number; published_at: string; flow: Record<string, unknown> }>('GET', `${bot(id)}/flows/${flowId}/versions/${version}`),
  testRun: (id: string, flowId: string, body: { flow?: unknown; state: unknown; input: unknown }) =>
    api<{ state: unknown; messages: { kind: string; text?: string; buttons?: { id: string; title: string }[] }[]; events: { type: string }[] }>('POST', `${bot(id)}/flows/${flowId}/test-run`, body),

  integrations: (id: string) => api<Page<IntegrationItem>>('GET', `${bot(id)}/integrations${query({ limit: 200 })}`),
  /** The chatbot's one integration of a typed channel, or null: asked through the list, so an absent channel is no failed request. */
  channelIfAny: async <T,>(id: string, type: 'web' | 'rest-api' | 'chatapp', load: (id: string) => Promise<T>): Promise<T | null> => {
    const listed = await api<Page<IntegrationItem>>('GET', `${bot(id)}/integrations${query({ type, limit: 1 })}`)
    return listed.items.length > 0 ? load(id) : null
  },
  web: (id: string) => api<WebIntegration>('GET', `${bot(id)}/integrations/web`),
  createWeb: (id: string, body: Record<string, unknown>) => api<WebIntegration>('POST', `${bot(id)}/integrations/web`, body),
  updateWeb: (id: string, body: Record<string, unknown>) => api<WebIntegration>('PATCH', `${bot(id)}/integrations/web`, body),
  restApi: (id: string) => api<RestApiIntegration>('GET', `${bot(id)}/integrations/rest-api`),
  createRestApi: (id: string, body: { name: string; webhook_url: string }) => api<RestApiIntegration & { signing_secret: string }>('POST', `${bot(id)}/integrations/rest-api`, body),
  updateRestApi: (id: string, body: Record<string, unknown>) => api<RestApiIntegration>('PATCH', `${bot(id)}/integrations/rest-api`, body),
  deliveries: (id: string) => api<Page<Delivery>>('GET', `${bot(id)}/integrations/rest-api/deliveries${query({ limit: 50 })}`),
  redeliver: (id: string, deliveryId: string) => api<Delivery>('POST', `${bot(id)}/integrations/rest-api/deliveries/${deliveryId}/redeliver`),
  mcps: (id: string) => api<Page<McpIntegration>>('GET', `${bot(id)}/integrations/mcp${query({ limit: 200 })}`),
  createMcp: (id: string, body: Record<string, unknown>) => api<McpIntegration>('POST', `${bot(id)}/integrations/mcp`, body),
  updateMcp: (id: string, mcpId: string, body: Record<string, unknown>) => api<McpIntegration>('PATCH', `${bot(id)}/integrations/mcp/${mcpId}`, body),
  deleteMcp: (id: string, mcpId: string) => api<void>('DELETE', `${bot(id)}/integrations/${mcpId}`),
  testMcp: (id: string, mcpId: string) => api<McpTest>('POST', `${bot(id)}/integrations/mcp/${mcpId}/test`),
  mcpTools: (id: string, mcpId: string) => api<{ tools: McpTool[]; listed_at: string }>('GET', `${bot(id)}/integrations/mcp/${mcpId}/tools`),
  callTool: (id: string, mcpId: string, name: string, args: unknown) => api<{ content: Record<string, unknown>[]; is_error: boolean; truncated: boolean }>('POST', `${bot(id)}/integrations/mcp/${mcpId}/tools/${encodeURIComponent(name)}/call`, { arguments: args }),

  chatapp: (id: string) => api<ChatappIntegration>('GET', `${bot(id)}/integrations/chatapp`),
  createChatapp: (id: string, body: Record<string, unknown>) => api<ChatappIntegration>('POST', `${bot(id)}/integrations/chatapp`, body),
  updateChatapp: (id: string, body: Record<string, unknown>) => api<ChatappIntegration>('PATCH', `${bot(id)}/integrations/chatapp`, body),
  chatappHandshake: (id: string) => api<ChatappHandshake>('GET', `${bot(id)}/integrations/chatapp/handshake`),
  chatappDeliveries: (id: string) => api<Page<ChatappDelivery>>('GET', `${bot(id)}/integrations/chatapp/deliveries${query({ limit: 50 })}`),
  mcp: (id: string, mcpId: string) => api<McpIntegration>('GET', `${bot(id)}/integrations/mcp/${mcpId}`),
  startMcpOAuth: (id: string, mcpId: string) => api<{ authorization_url: string; expires_at: string }>('POST', `${bot(id)}/integrations/mcp/${mcpId}/oauth/start`),

  users: () => api<Page<User>>('GET', `/users${query({ limit: 200 })}`),
  invite: (body: { email: string; display_name: string; role: 'admin' | 'agent' }) => api<{ user: User; invite: OneTimeLink }>('POST', '/users', body),
  updateUser: (userId: string, body: { role?: 'admin' | 'agent'; disabled?: boolean; display_name?: string }) => api<User>('PATCH', `/users/${userId}`, body),
  userLink: (userId: string) => api<OneTimeLink>('POST', `/users/${userId}/invite-link`),

  keys: () => api<Page<ApiKey>>('GET', '/api-keys'),
  createKey: (name: string) => api<ApiKey & { key: string }>('POST', '/api-keys', { name }),
  revokeKey: (prefix: string) => api<ApiKey>('DELETE', `/api-keys/${prefix}`),

  operations: () => api<Operations>('GET', '/operations'),
  logs: () => api<{ lines: string[] }>('GET', '/operations/logs'),
}
