import type { TestApp } from '../../support/test-app.ts'

/**
 * The agents' side of a chatbot, through the developer API exactly as a helpdesk would call
 * it (/api/dev/v1/chatbots/{id}/conversations...). Every call must succeed.
 */
export function agentDesk(app: TestApp, chatbotId: string) {
  const base = `/api/dev/v1/chatbots/${chatbotId}/conversations`
  const call = async (method: string, path: string, body?: unknown) => {
    const result = await app.call(method, `${base}${path}`, { body })
    if (result.status >= 300) throw new Error(`${method} ${base}${path} answered ${result.status}: ${result.text}`)
    return result.body
  }
  return {
    async conversations(): Promise<{ id: string; status: string; contact_id: string }[]> {
      return (await call('GET', '/')).items
    },
    /** The chatbot's one conversation (fails when there is none, or several). */
    async onlyConversation(): Promise<{ id: string; status: string; contact_id: string }> {
      const items = await this.conversations()
      if (items.length !== 1) throw new Error(`expected one conversation, found ${items.length}`)
      return items[0]!
    },
    async conversation(id: string) {
      return await call('GET', `/${id}`)
    },
    async messages(id: string): Promise<{ id: string; role: string; author?: string; content: { kind: string; [field: string]: unknown } }[]> {
      return (await call('GET', `/${id}/messages?limit=200`)).items
    },
    async say(id: string, text: string, author?: string) {
      return await call('POST', `/${id}/messages`, author ? { text, author } : { text })
    },
    async typing(id: string, active: boolean) {
      await call('POST', `/${id}/typing`, { active })
    },
    async setStatus(id: string, status: 'bot' | 'handoff' | 'closed') {
      return await call('PATCH', `/${id}`, { status })
    },
  }
}
