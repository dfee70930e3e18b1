const addresses = new WeakMap<Request, string>()

/** Recorded by the listener, which alone knows the peer of a request. */
export function rememberClientAddress(request: Request, address: string | undefined): void {
  if (address) addresses.set(request, address)
}

/** The peer's IP address, or "unknown" for requests that did not come through the listener. */
export function clientAddress(request: Request): string {
  return addresses.get(request) ?? 'unknown'
}
