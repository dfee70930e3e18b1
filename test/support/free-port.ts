/** A port of 127.0.0.1 nobody listens on now: for a server that must know its address before it starts. */
export function freePort(): number {
  const probe = Bun.listen({ hostname: '127.0.0.1', port: 0, socket: { data() {} } })
  const port = probe.port
  probe.stop(true)
  return port
}
