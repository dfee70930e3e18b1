/**
 * The MCP client the conformance suite runs (`conformance client --command "bun this-file"`):
 * a real Parley over a temporary database, whose mcp integration points to the scenario's
 * server (the URL is the last argument). Every scenario goes through Parley's API and so
 * through its real client code: the connection test (initialize, tools/list) and, where the
 * scenario has a tool to call, POST .../tools/{name}/call.
 */
import { testApp } from '../../support/test-app.ts'

const serverUrl = process.argv.at(-1) as string
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? ''
/** The tool each scenario expects to be called, with its arguments. */
const CALLS: Record<string, { name: string; arguments: Record<string, unknown> }> = {
  tools_call: { name: 'add_numbers', arguments: { a: 5, b: 3 } },
  'sse-retry': { name: 'test_reconnection', arguments: {} },
}

// The scenario servers listen on `localhost`, which Parley refuses unless the operator allows it.
const app = testApp({ PARLEY_OUTBOUND_ALLOW: 'localhost,127.0.0.1,::1' })
let failed = false
try {
  const bot = (await app.call('POST', '/api/dev/v1/chatbots', { body: { name: 'Conformance' } })).body.id
  const created = await app.call('POST', `/api/dev/v1/chatbots/${bot}/integrations/mcp`, { body: { name: 'conformance', url: serverUrl } })
  if (created.status !== 201) throw new Error(`create answered ${created.status}: ${created.text}`)
  const base = `/api/dev/v1/chatbots/${bot}/integrations/mcp/${created.body.id}`
  const tested = await app.call('POST', `${base}/test`)
  console.log(`test: ${tested.status} ${tested.text}`)
  if (!tested.body?.ok) failed = true
  const call = CALLS[scenario]
  if (call) {
    const answer = await app.call('POST', `${base}/tools/${call.name}/call`, { body: { arguments: call.arguments } })
    console.log(`call ${call.name}: ${answer.status} ${answer.text}`)
    if (answer.status !== 200) failed = true
  }
} catch (error) {
  console.error(error)
  failed = true
} finally {
  await app.close()
}
process.exit(failed ? 1 : 0)
