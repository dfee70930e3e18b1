#!/usr/bin/env bun
/**
 * A closed-loop HTTP load generator: CONNECTIONS loops, each sending its next request as soon
 * as the last one answers, for SECONDS. Prints one JSON line: {requests, errors, rps, p50, p99}.
 * Runs as its own process so that it never shares an event loop with the server it measures.
 */
export {}

const [url, connectionsArg = '64', secondsArg = '5', headersJson = '{}'] = process.argv.slice(2)
if (!url) throw new Error('usage: load.ts URL [CONNECTIONS] [SECONDS] [HEADERS_JSON]')
const connections = Number(connectionsArg)
const durationMs = Number(secondsArg) * 1000
const headers = JSON.parse(headersJson) as Record<string, string>

const latencies: number[] = []
let errors = 0
const started = performance.now()
const deadline = started + durationMs

async function loop() {
  while (performance.now() < deadline) {
    const sent = performance.now()
    try {
      const response = await fetch(url as string, { headers })
      await response.arrayBuffer()
      if (response.status !== 200) errors++
      else latencies.push(performance.now() - sent)
    } catch {
      errors++
    }
  }
}

await Promise.all(Array.from({ length: connections }, loop))
const elapsed = (performance.now() - started) / 1000
latencies.sort((a, b) => a - b)
const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0
console.log(
  JSON.stringify({
    requests: latencies.length,
    errors,
    rps: latencies.length / elapsed,
    p50: at(0.5),
    p99: at(0.99),
  }),
)
