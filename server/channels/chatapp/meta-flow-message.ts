import { cut, LIMITS, withoutEmoji } from './cloud-api-limits.ts'

/** A published meta flow (WhatsApp Flow JSON) and the name it is registered under at the provider. */
export interface MetaFlowView {
  name: string
  definition: Record<string, unknown>
}

const DEFAULT_CTA = 'Open'

/**
 * The `interactive` part of a flow message built from a published meta flow. The provider's
 * send API takes only a flow it already knows, by `flow_id` or `flow_name` (a Flow JSON
 * document cannot be sent inline), so the flow goes by the name of the Parley flow: register
 * the same JSON under that name in the provider's flow manager. When the provider refuses it,
 * the sender falls back to the call to action as text (see cloud-api-sender.ts).
 *
 * A flow with `data_api_version` talks to its endpoint from the first screen on
 * (`data_exchange`); any other opens its first screen (`navigate`) with the example values
 * that screen declares for its data.
 */
export function metaFlowMessage(view: MetaFlowView, body: string, cta: string, flowToken: string): Record<string, unknown> {
  const parameters: Record<string, unknown> = {
    flow_message_version: '3',
    flow_token: flowToken,
    flow_name: view.name,
    flow_cta: cut(withoutEmoji(cta) || DEFAULT_CTA, LIMITS.flowCta),
    mode: 'published',
  }
  if (typeof view.definition.data_api_version === 'string') parameters.flow_action = 'data_exchange'
  else {
    parameters.flow_action = 'navigate'
    const first = firstScreen(view.definition)
    if (first) {
      const payload: Record<string, unknown> = { screen: first.id }
      const data = exampleData(first.data)
      if (data) payload.data = data
      parameters.flow_action_payload = payload
    }
  }
  return { body: { text: body }, action: { name: 'flow', parameters } }
}

function firstScreen(definition: Record<string, unknown>): { id: string; data?: unknown } | null {
  const screens = Array.isArray(definition.screens) ? definition.screens : []
  const first = screens[0] as { id?: unknown; data?: unknown } | undefined
  return first && typeof first.id === 'string' ? { id: first.id, data: first.data } : null
}

/** `{field: __example__}` for the fields a screen declares; null when it declares none with an example. */
function exampleData(declared: unknown): Record<string, unknown> | null {
  if (!declared || typeof declared !== 'object' || Array.isArray(declared)) return null
  const data: Record<string, unknown> = {}
  for (const [field, spec] of Object.entries(declared)) {
    if (spec && typeof spec === 'object' && '__example__' in spec) data[field] = (spec as { __example__: unknown }).__example__
  }
  return Object.keys(data).length > 0 ? data : null
}

/** Flow tokens Parley sends look like this, so that a completed form names its conversation and flow. */
export const flowTokenOf = (conversationId: string, flowId: string) => `parley.${conversationId}.${flowId}`

/** The conversation and flow a flow token names, when Parley made it. */
export function readFlowToken(token: unknown): { conversationId: string; flowId: string } | null {
  if (typeof token !== 'string') return null
  const match = /^parley\.([0-9A-HJKMNP-TV-Z]{26})\.([0-9A-HJKMNP-TV-Z]{26})$/.exec(token)
  return match ? { conversationId: match[1] as string, flowId: match[2] as string } : null
}
