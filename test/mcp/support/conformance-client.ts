/**
 * The MCP client the conformance suite runs (`conformance client --command "bun this-file"`):
 * a real Parley over a temporary database, whose mcp integration points to the scenario's
 * server (the URL is the last argument). Every scenario goes through Parley's API and so
 * through its real client code: the connection test (initialize, tools/list) and, where the
 * scenario has a tool to call, POST .../tools/{name}/call.
 *
 * The auth/* scenarios use OAuth: the client_credentials ones with the client the suite gives
 * (MCP_CONFORMANCE_CONTEXT), the others with the authorization-code grant (the suite's client
 * when it gives one, else dynamic registration). When the test says a person must authorize,
 * this script is the person: it runs oauth/start, opens the URL (the suite's authorization
 * server approves at once and redirects) and hands the redirect to Parley's public callback.
 */
import { testApp } from '../../support/test-app.ts'

const serverUrl = process.argv.at(-1) as string
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? ''
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}') as { client_id?: string; client_secret?: string }
/** The tool each scenario expects to be called, with its arguments. */
const CALLS: Record<string, { name: string; arguments: Record<string, unknown> }> = {
  tools_call: { name: 'add_numbers', arguments: { a: 5, b: 3 } },
  'sse-retry': { name: 'test_reconnection', arguments: {} },
}

function authFor(): Record<string, unknown> {
  if (!scenario.startsWith('auth/')) return { type: 'none' }
  const client = context.client_id ? { client_id: context.client_id, ...(context.client_secret ? { client_secret: context.client_secret } : {}) } : {}
  if (scenario.startsWith('auth/client-credentials')) return { type: 'oauth', grant: 'client_credentials', ...client }
  return { type: 'oauth', ...client }
}

// The scenario servers listen on `localhost`, which Parley refuses unless the operator allows it.
const app = testApp({ PARLEY_OUTBOUND_ALLOW: 'localhost,127.0.0.1,::1' })
let failed = false
try {
  const bot = (await app.call('POST', '/api/dev/v1/chatbots', { body: { name: 'Conformance' } })).body.id
  const created = await app.call('POST', `/api/dev/v1/chatbots/${bot}/integrations/mcp`, { body: { name: 'conformance', url: serverUrl, auth: authFor() } })
  if (created.status !== 201) throw new Error(`create answered ${created.status}: ${created.text}`)
  const base = `/api/dev/v1/chatbots/${bot}/integrations/mcp/${created.body.id}`
  let tested = await app.call('POST', `${base}/test`)
  console.log(`test: ${tested.status} ${tested.text}`)
  /** The person: oauth/start, the authorization server's page (it approves at once), back to Parley's callback. */
  async function authorize(): Promise<void> {
    const started = await app.call('POST', `${base}/oauth/start`)
    console.log(`oauth/start: ${started.status} ${started.text}`)
    if (started.status !== 200) throw new Error('oauth/start failed')
    const atServer = await fetch(started.body.authorization_url, { redirect: 'manual' })
    const back = new URL(atServer.headers.get('location') ?? '')
    const callback = await app.call('GET', back.pathname + back.search, { key: null })
    console.log(`callback: ${callback.status} ${callback.text}`)
  }
  if (tested.body?.failure?.needs_authorization) {
    await authorize()
    tested = await app.call('POST', `${base}/test`)
    console.log(`test: ${tested.status} ${tested.text}`)
  }
  if (!tested.body?.ok) failed = true
  // The auth scenarios' servers have one tool; calling it is where a server may ask for more scope.
  const firstTool = scenario.startsWith('auth/') ? tested.body?.tools?.[0]?.name : undefined
  const call = CALLS[scenario] ?? (firstTool ? { name: firstTool, arguments: {} } : undefined)
  if (call) {
    // Tools without annotations start denied (they may be destructive): the admin ticks this one.
    const allowed = await app.call('PATCH', base, { body: { tools: { allow: [call.name] } } })
    console.log(`allow ${call.name}: ${allowed.status}`)
    const send = () => app.call('POST', `${base}/tools/${encodeURIComponent(call.name)}/call`, { body: { arguments: call.arguments } })
    let answer = await send()
    console.log(`call ${call.name}: ${answer.status} ${answer.text}`)
    // What a person does when told the server wants more scope: authorize again, then retry.
    if (answer.status === 502 && String(answer.body?.detail).includes('oauth/start')) {
      await authorize()
      answer = await send()
      console.log(`call ${call.name}: ${answer.status} ${answer.text}`)
    }
    if (answer.status !== 200) failed = true
  }
} catch (error) {
  console.error(error)
  failed = true
} finally {
  await app.close()
}
process.exit(failed ? 1 : 0)
