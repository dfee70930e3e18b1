import { WidgetClient } from '../../support/widget-client.ts'
import { fakeGraphApi } from '../../channels/chatapp/support/fake-graph-api.ts'
import { webhookReceiver } from '../../outbox/support/webhook-receiver.ts'
import type { CrashBed } from './crash-bed.ts'

/** What the server acknowledged during one run, by the id each write can be found by in the database. */
export interface Acknowledged {
  /** Widget messages the visitor saw confirmed (their own message sent back): client ids. */
  widget: string[]
  /** Agents' messages answered 201: their texts. */
  agent: string[]
  /** rest-api messages answered 202: client ids. */
  restApi: string[]
  /** chatapp webhooks answered 200 with the message stored: provider message ids. */
  chatapp: string[]
}

/** The chatbots the load talks to, made once; they survive every restart. */
export interface Targets {
  widgetKey: string
  restApiBot: string
  /** rest-api conversations that agents write into. */
  desk: { bot: string; conversation: string }[]
  chatapp: { hookPath: string; phoneNumberId: string }
}

/** The receivers outside Parley: a webhook receiver and the messaging provider, both on 127.0.0.1. */
export function outsideWorld() {
  const receiver = webhookReceiver()
  const graph = fakeGraphApi()
  return {
    receiver,
    graph,
    env: { PARLEY_OUTBOUND_ALLOW: '127.0.0.1', PARLEY_CHATAPP_API_URL: graph.url },
    stop() {
      receiver.stop()
      graph.stop()
    },
  }
}

export async function makeTargets(bed: CrashBed, world: ReturnType<typeof outsideWorld>): Promise<Targets> {
  const webBot = await bed.chatbot('Web')
  const web = await bed.must('POST', `/api/dev/v1/chatbots/${webBot}/integrations/web`, { name: 'Site' })
  const restApiBot = await bed.chatbot('API')
  await bed.must('POST', `/api/dev/v1/chatbots/${restApiBot}/integrations/rest-api`, { webhook_url: world.receiver.url, name: 'Back office' })
  const desk = []
  for (let k = 0; k < 4; k++) {
    const opened = await bed.must('POST', `/api/dev/v1/chatbots/${restApiBot}/integrations/rest-api/messages`, { user_id: `desk-${k}`, text: 'help' })
    desk.push({ bot: restApiBot, conversation: opened.conversation_id as string })
  }
  const chatappBot = await bed.chatbot('Chat app')
  const phoneNumberId = '106540352242922'
  const accessToken = 'EAAG-crash-test-token'
  world.graph.register(phoneNumberId, accessToken)
  const chatapp = await bed.must('POST', `/api/dev/v1/chatbots/${chatappBot}/integrations/chatapp`, {
    phone_number_id: phoneNumberId,
    access_token: accessToken,
    verify_token: 'verify-me-please',
  })
  return { widgetKey: web.config.widget_key, restApiBot, desk, chatapp: { hookPath: new URL(chatapp.config.callback_url).pathname, phoneNumberId } }
}

export interface LoadShape {
  visitors: number
  agents: number
  restApiClients: number
  chatappSenders: number
}

/**
 * Writes through every channel at once until the server goes away: widget visitors who send,
 * wait for their confirmation and send again; agents; rest-api clients; the provider's
 * webhooks. Each loop records a write only once its acknowledgement has arrived, and ends at
 * the first failure to reach the server. `tag` keeps every run's ids apart.
 */
export function startLoad(bed: CrashBed, targets: Targets, shape: LoadShape, tag: string) {
  const acked: Acknowledged = { widget: [], agent: [], restApi: [], chatapp: [] }
  let stopped = false
  const url = bed.url
  const headers = { authorization: `Bearer ${bed.key}`, 'content-type': 'application/json' }

  async function visitor(index: number): Promise<void> {
    let client: WidgetClient
    try {
      client = await WidgetClient.connect(`${url.replace('http', 'ws')}/widget/v1/socket?key=${targets.widgetKey}`)
      await client.hello()
    } catch {
      return
    }
    for (let n = 0; !stopped; n++) {
      const clientId = `${tag}_w${index}_${n}`
      client.send({ type: 'message', client_id: clientId, text: `visitor ${clientId}` })
      try {
        for (;;) {
          const { message } = await client.next('message', 10_000)
          if (message.client_id === clientId) break
        }
      } catch {
        break
      }
      acked.widget.push(clientId)
    }
    client.close()
  }

  /** POSTs until the server is gone; `ok` is the acknowledging status. */
  async function poster(ok: number, request: (n: number) => { path: string; body: unknown; id: string; auth?: boolean }, into: string[]): Promise<void> {
    for (let n = 0; !stopped; n++) {
      const { path, body, id, auth = true } = request(n)
      let response: Response
      try {
        response = await fetch(`${url}${path}`, { method: 'POST', headers: auth ? headers : { 'content-type': 'application/json' }, body: JSON.stringify(body) })
      } catch {
        break
      }
      if (response.status === ok) into.push(id)
      else if (response.status < 500) throw new Error(`POST ${path} answered ${response.status}: ${await response.text()}`)
      try {
        await response.arrayBuffer()
      } catch {
        break
      }
    }
  }

  const loops: Promise<void>[] = []
  for (let i = 0; i < shape.visitors; i++) loops.push(visitor(i))
  for (let i = 0; i < shape.agents; i++) {
    const { bot, conversation } = targets.desk[i % targets.desk.length]!
    loops.push(
      poster(201, (n) => {
        const text = `agent ${tag}_a${i}_${n}`
        return { path: `/api/dev/v1/chatbots/${bot}/conversations/${conversation}/messages`, body: { text }, id: text }
      }, acked.agent),
    )
  }
  for (let i = 0; i < shape.restApiClients; i++) {
    loops.push(
      poster(202, (n) => {
        const clientId = `${tag}_r${i}_${n}`
        return { path: `/api/dev/v1/chatbots/${targets.restApiBot}/integrations/rest-api/messages`, body: { user_id: `user-${i}`, text: `api ${clientId}`, client_id: clientId }, id: clientId }
      }, acked.restApi),
    )
  }
  for (let i = 0; i < shape.chatappSenders; i++) {
    const from = `4479111234${String(10 + i)}`
    loops.push(
      poster(200, (n) => {
        const wamid = `wamid.${tag}_c${i}_${n}`
        const body = {
          object: 'whatsapp_business_account',
          entry: [{
            id: '102290129340398',
            changes: [{
              field: 'messages',
              value: {
                messaging_product: 'whatsapp',
                metadata: { display_phone_number: '15550783881', phone_number_id: targets.chatapp.phoneNumberId },
                contacts: [{ profile: { name: 'Load' }, wa_id: from }],
                messages: [{ from, id: wamid, timestamp: String(Math.floor(Date.now() / 1000)), type: 'text', text: { body: `hook ${wamid}` } }],
              },
            }],
          }],
        }
        return { path: targets.chatapp.hookPath, body, id: wamid, auth: false }
      }, acked.chatapp),
    )
  }

  return {
    acked,
    /** Ends the loops (after the server is gone, they end on their own) and waits for them. */
    async settle(): Promise<void> {
      stopped = true
      await Promise.all(loops)
    },
  }
}
