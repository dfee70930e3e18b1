#!/usr/bin/env bun
/**
 * The baseline of bench:agent: the least a program can do to answer a widget visitor with the
 * same model and tool. A bare Bun WebSocket server that, for each visitor message, says it is
 * typing, calls the model (streamed, over `fetch`), calls the tool it asks for through the
 * official MCP SDK client (one connection, as Parley keeps one per integration), calls the
 * model again with the result and sends the answer. It stores nothing, checks nothing and
 * streams no drafts: what it waits beyond the model's and the tool's own time is what the
 * sockets, the processes' wake-ups and the two clients cost on this machine, which Parley
 * pays too. Usage: bare-agent-server.ts MODEL_BASE_URL MCP_URL; prints "listening PORT".
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js'

const [modelBaseUrl, mcpUrl] = process.argv.slice(2)
if (!modelBaseUrl || !mcpUrl) throw new Error('usage: bare-agent-server.ts MODEL_BASE_URL MCP_URL')

const mcp = new Client({ name: 'bare-agent', version: '1.0.0' })
await mcp.connect(new StreamableHTTPClientTransport(new URL(mcpUrl)))
const { tools } = await mcp.listTools()
const offered = tools.map((tool) => ({ type: 'function', function: { name: `bench__${tool.name}`, description: tool.description, parameters: tool.inputSchema } }))

type ChatMessage = { role: string; content: string | null; tool_calls?: unknown[]; tool_call_id?: string }
interface Answer {
  text: string
  calls: { id: string; name: string; arguments: string }[]
}

/** One streamed chat-completions call, its text and tool calls put together from the chunks. */
async function callModel(messages: ChatMessage[]): Promise<Answer> {
  const response = await fetch(`${modelBaseUrl}/chat/completions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
    body: JSON.stringify({ model: 'bench-model', messages, tools: offered, stream: true }),
  })
  const answer: Answer = { text: '', calls: [] }
  let buffered = ''
  const decoder = new TextDecoder()
  const reader = (response.body as ReadableStream<Uint8Array>).getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return answer
    buffered += decoder.decode(value, { stream: true })
    let end = buffered.indexOf('\n\n')
    while (end >= 0) {
      const data = buffered.slice(0, end).replace(/^data: /, '')
      buffered = buffered.slice(end + 2)
      end = buffered.indexOf('\n\n')
      if (data === '[DONE]') {
        await reader.cancel()
        return answer
      }
      const delta = (JSON.parse(data) as { choices: { delta: { content?: string; tool_calls?: { index: number; id?: string; function: { name?: string; arguments?: string } }[] } }[] }).choices[0]?.delta
      if (delta?.content) answer.text += delta.content
      for (const call of delta?.tool_calls ?? []) {
        const known = (answer.calls[call.index] ??= { id: '', name: '', arguments: '' })
        known.id ||= call.id ?? ''
        known.name += call.function.name ?? ''
        known.arguments += call.function.arguments ?? ''
      }
    }
  }
}

async function answer(question: string): Promise<string> {
  const messages: ChatMessage[] = [
    { role: 'system', content: 'Answer with the echo tool.' },
    { role: 'user', content: question },
  ]
  for (;;) {
    const said = await callModel(messages)
    if (said.calls.length === 0) return said.text
    messages.push({ role: 'assistant', content: null, tool_calls: said.calls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } })) })
    for (const call of said.calls) {
      const result = await mcp.callTool({ name: call.name.replace(/^bench__/, ''), arguments: JSON.parse(call.arguments) as Record<string, unknown> })
      const text = (result.content as { type: string; text?: string }[]).map((block) => block.text ?? '').join('\n')
      messages.push({ role: 'tool', tool_call_id: call.id, content: text })
    }
  }
}

let conversations = 0
const server = Bun.serve<{ conversationId: string }>({
  hostname: '127.0.0.1',
  port: 0,
  fetch(request, srv) {
    if (srv.upgrade(request, { data: { conversationId: `bare-${++conversations}` } })) return undefined
    return new Response('websocket only', { status: 426 })
  },
  websocket: {
    async message(socket, raw) {
      const frame = JSON.parse(String(raw)) as { type: string; text?: string }
      const conversation_id = socket.data.conversationId
      if (frame.type === 'hello') return void socket.send(JSON.stringify({ type: 'welcome' }))
      if (frame.type !== 'message') return
      socket.send(JSON.stringify({ type: 'typing', from: 'bot', active: true }))
      const text = await answer(frame.text ?? '')
      socket.send(JSON.stringify({ type: 'typing', from: 'bot', active: false }))
      socket.send(JSON.stringify({ type: 'message', message: { role: 'bot', conversation_id, content: { kind: 'text', text } } }))
    },
  },
})
console.log(`listening ${server.port}`)
