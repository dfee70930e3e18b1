const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS'])

/**
 * What an `agent` may change: their own session, and conversations (reply, take over, hand
 * back, close). Every other change (chatbots, flows, integrations, channels' machine routes,
 * people and invites) is an admin action. An allow-list, so that a route added later is
 * closed to agents until someone decides otherwise.
 */
const AGENT_WRITABLE = [/^\/api\/dev\/v1\/auth\//, /^\/api\/dev\/v1\/desk\//, /^\/api\/dev\/v1\/chatbots\/[^/]+\/conversations(\/|$)/]

/**
 * What an `agent` may not even read: the installation's operations (its logs and a copy of the
 * whole database) and the workspace's API keys.
 */
const ADMIN_ONLY = [/^\/api\/dev\/v1\/operations(\/|$)/, /^\/api\/dev\/v1\/api-keys(\/|$)/]

export function isAdminAction(method: string, path: string): boolean {
  if (ADMIN_ONLY.some((pattern) => pattern.test(path))) return true
  if (SAFE_METHODS.has(method.toUpperCase())) return false
  return !AGENT_WRITABLE.some((pattern) => pattern.test(path))
}

export function isStateChanging(method: string): boolean {
  return !SAFE_METHODS.has(method.toUpperCase())
}
