interface Peers {
  requestIP(request: Request): { address: string } | null
}

const listeners = new WeakMap<Request, Peers>()

/**
 * Recorded by the listener, which alone knows the peers of its requests; the address itself
 * is looked up only when a route asks for it.
 */
export function rememberListener(request: Request, listener: Peers): void {
  listeners.set(request, listener)
}

/** The peer's IP address, or "unknown" for requests that did not come through a listener. */
export function clientAddress(request: Request): string {
  return listeners.get(request)?.requestIP(request)?.address ?? 'unknown'
}
