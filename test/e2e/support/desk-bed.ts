import type { ConversationFlow } from '../../../server/flow-language/conversation-flow-schema.ts'
import { freePort } from '../../support/free-port.ts'
import { crashBed } from './crash-bed.ts'
import { TEST_PASSWORD_HASHING } from '../../support/test-password-hashing.ts'


/** A flow that hands every visitor over to a person at their first message. */
export const HANDOFF_FLOW: ConversationFlow = {
  version: 1,
  start: 'welcome',
  states: {
    welcome: { say: [{ text: 'Hello! What can we do for you?' }], on: [{ to: 'human' }] },
    human: { handoff: { text: 'A person will answer you here shortly.' } },
  },
}

export interface Person {
  email: string
  password: string
  name: string
}

/**
 * The compiled `dist/parley` for desk tests: on a known port whose address is its public URL
 * (the desk's Origin check compares against it), with its first-start API key and setup link,
 * people invited and activated through the API exactly as the desk's link pages do it, and a
 * restart on the same port and data.
 */
export async function deskBed(env: Record<string, string> = {}) {
  const port = freePort()
  const publicUrl = `http://127.0.0.1:${port}`
  // People sign in in every test: their hashes at the tests' weak cost (test/people/password-cost.test.ts).
  const bed = crashBed({ ...TEST_PASSWORD_HASHING, ...env, PORT: String(port), PARLEY_PUBLIC_URL: publicUrl })
  await bed.start()
  return {
    ...bed,
    url: publicUrl,
    async restart(): Promise<void> {
      await bed.kill()
      await bed.start()
    },
    /** A chatbot with the flow published and a web integration; its widget key. */
    async webChat(flow: ConversationFlow = HANDOFF_FLOW, name = 'Shop bot'): Promise<{ chatbotId: string; widgetKey: string }> {
      const chatbotId = await bed.chatbot(name, flow)
      const web = await bed.must('POST', `/api/dev/v1/chatbots/${chatbotId}/integrations/web`, { name: 'Site' })
      return { chatbotId, widgetKey: web.config.widget_key }
    },
    /** Invites a person with the API key and sets their password from the invite link. */
    async person(name: string, role: 'admin' | 'agent'): Promise<Person> {
      const email = `${name.toLowerCase()}@acme.test`
      const password = `${name}-correct-horse-battery`
      const made = await bed.must('POST', '/api/dev/v1/users', { email, display_name: name, role })
      const token = new URL(made.invite.url).hash.replace('#token=', '')
      const accepted = await fetch(`${publicUrl}/api/dev/v1/auth/accept-invite`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: publicUrl },
        body: JSON.stringify({ token, password }),
      })
      if (accepted.status !== 200) throw new Error(`accept-invite answered ${accepted.status}: ${await accepted.text()}`)
      return { email, password, name }
    },
  }
}

export type DeskBed = Awaited<ReturnType<typeof deskBed>>
