import { invalidField } from '../http/api-error.ts'
import { maskOptional } from '../integrations/mask-secret.ts'
import type { OutboundUrlPolicy } from '../support/outbound-url.ts'
import { DEFAULT_MAX_TOKENS } from '../llm/answer-limits.ts'
import type { StoredLlmSettings } from '../llm/stored-llm-settings.ts'
import { LLM_DEADLINE_DEFAULTS, type LlmSettings, type UpdateChatbot } from './model.ts'

const LIMIT_DEFAULTS = { max_tokens: DEFAULT_MAX_TOKENS, ...LLM_DEADLINE_DEFAULTS }

/** The settings as answers show them: the key masked. */
export function showLlmSettings(stored: string | null): LlmSettings | null {
  const settings = readLlmSettings(stored)
  return settings ? { ...settings, api_key: maskOptional(settings.api_key) } : null
}

export function readLlmSettings(stored: string | null): StoredLlmSettings | null {
  // Settings stored before the limits existed take their defaults.
  return stored ? { ...LIMIT_DEFAULTS, ...(JSON.parse(stored) as Partial<StoredLlmSettings>) } as StoredLlmSettings : null
}

/**
 * The settings a PATCH asks for, as JSON to store: `null` removes them; an omitted `api_key`
 * keeps the stored one while base_url stays the same, so a client never has to send the key
 * back. The base URL passes the outbound-address policy, as webhooks do: a team's own Ollama
 * on a private address is allowed through PARLEY_OUTBOUND_ALLOW.
 */
export function nextLlmSettings(
  input: NonNullable<UpdateChatbot['llm']> | null,
  stored: string | null,
  outbound: Pick<OutboundUrlPolicy, 'checkOutboundUrl'>,
): string | null {
  if (input === null) return null
  const checked = outbound.checkOutboundUrl(input.base_url)
  if (!checked.ok) throw invalidField('/llm/base_url', checked.reason)
  const base = checked.url.href.replace(/\/+$/, '')
  const before = readLlmSettings(stored)
  // The key is write-only: kept for another base URL, it would be sent there with the next model
  // call, readable by whoever chose it. Another path can be another tenant of the same host
  // (per-account gateway paths), so any change of the URL counts, not only of its origin.
  if (input.api_key === undefined && before?.api_key && before.base_url !== base) {
    throw invalidField('/llm/api_key', `send api_key again (or null) when base_url changes: the stored key is only sent to ${before.base_url}`)
  }
  const apiKey = input.api_key === undefined ? (before?.api_key ?? null) : input.api_key
  // A limit omitted keeps its stored value (a client that knows none of them resets none); null restores the default.
  const limit = <K extends keyof typeof LIMIT_DEFAULTS>(key: K): number => {
    const given = input[key]
    return given === undefined ? (before?.[key] ?? LIMIT_DEFAULTS[key]) : (given ?? LIMIT_DEFAULTS[key])
  }
  const settings: StoredLlmSettings = {
    base_url: base,
    model: input.model.trim(),
    temperature: input.temperature ?? null,
    api_key: apiKey,
    max_tokens: limit('max_tokens'),
    call_deadline_ms: limit('call_deadline_ms'),
    run_deadline_ms: limit('run_deadline_ms'),
  }
  return JSON.stringify(settings)
}
