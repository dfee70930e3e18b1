import type { WatchedPage } from './browser.ts'
import type { Person } from './desk-bed.ts'

/**
 * Signs `person` in inside the page's browser context with the request the sign-in form sends
 * (same Origin, same body), so the session cookie lands in that context. For tests whose subject
 * is not the sign-in form: it saves each of them a page load and a form (about a second on the
 * 2-core CI machine). The journeys and the sign-in tests still sign in through the form.
 */
export async function signInByApi(watched: WatchedPage, baseUrl: string, person: Person): Promise<void> {
  const answer = await watched.context.request.post(`${baseUrl}/api/dev/v1/auth/sign-in`, {
    data: { email: person.email, password: person.password },
    headers: { origin: baseUrl },
  })
  if (answer.status() !== 200) throw new Error(`sign-in as ${person.email} answered ${answer.status()}: ${await answer.text()}`)
}
