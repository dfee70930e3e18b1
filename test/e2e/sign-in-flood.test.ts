import { afterAll, expect, test } from 'bun:test'
import { type ClientRequest, request } from 'node:http'
import { crashBed } from './support/crash-bed.ts'

/**
 * A sign-in flood against the compiled binary, from many client addresses (127.0.x.y: the
 * whole of 127/8 is this machine's loopback, so each request leaves from an address of its
 * own), aimed at the admin's e-mail: wrong passwords from 24 addresses at once, more than
 * the password pool can check in many seconds. Meanwhile the admin signs in from a new
 * address with the right password: it must succeed, promptly. It used to get 429 (the flood
 * had used up the account's allowance, which locked the account from every address), and
 * once that was lifted it waited behind every queued argon2 check (16.6 s for 80 of them).
 */

const PUBLIC_URL = 'http://parley.test'
const PASSWORD = 'correct horse battery staple'
const bed = crashBed({ PARLEY_PUBLIC_URL: PUBLIC_URL })
const inFlight = new Set<ClientRequest>()
afterAll(async () => {
  for (const pending of inFlight) pending.destroy()
  await bed.close()
})

/** POST from a given local address of the loopback (fetch cannot choose one; node:http can). */
function post(from: string, path: string, body: unknown): Promise<{ status: number; ms: number }> {
  const url = new URL(bed.url)
  const started = performance.now()
  return new Promise((resolve, reject) => {
    const sent = request(
      { host: url.hostname, port: url.port, path, method: 'POST', localAddress: from, agent: false, headers: { 'content-type': 'application/json', origin: PUBLIC_URL } },
      (response) => {
        response.resume()
        response.on('end', () => {
          inFlight.delete(sent)
          resolve({ status: response.statusCode ?? 0, ms: performance.now() - started })
        })
      },
    )
    inFlight.add(sent)
    sent.on('error', (error) => {
      inFlight.delete(sent)
      reject(error)
    })
    sent.end(JSON.stringify(body))
  })
}

const signIn = (from: string, email: string, password: string) => post(from, '/api/dev/v1/auth/sign-in', { email, password })

test('during a sign-in flood from many addresses, the real admin signs in from a new address at once', async () => {
  await bed.start()
  const invited = await bed.must('POST', '/api/dev/v1/users', { email: 'admin@acme.io', display_name: 'Admin', role: 'admin' })
  const token = (invited.invite.url as string).split('#token=')[1]
  expect((await post('127.0.0.2', '/api/dev/v1/auth/accept-invite', { token, password: PASSWORD })).status).toBe(200)

  // What one sign-in costs on this machine now, alone: the yardstick for the one in the flood.
  const alone: number[] = []
  for (const last of [3, 4, 5]) {
    const answer = await signIn(`127.0.0.${last}`, 'admin@acme.io', PASSWORD)
    expect(answer.status).toBe(200)
    alone.push(answer.ms)
  }
  const lone = alone.toSorted((a, b) => a - b)[1] as number

  const statuses = new Map<number, number>()
  const flood: Promise<void>[] = []
  for (let host = 1; host <= 24; host++) {
    for (let k = 0; k < 20; k++) {
      const email = k % 4 === 3 ? `someone${k}@acme.io` : 'admin@acme.io'
      flood.push(
        signIn(`127.0.1.${host}`, email, `wrong password ${k}`).then(
          ({ status }) => void statuses.set(status, (statuses.get(status) ?? 0) + 1),
          () => {},
        ),
      )
    }
  }
  // The flood is under way: its first checks have been answered, most are queued.
  for (let waited = 0; (statuses.get(401) ?? 0) < 3; waited += 20) {
    if (waited > 20_000) throw new Error(`the flood got no answers: ${JSON.stringify([...statuses])}`)
    await Bun.sleep(20)
  }

  const during = await signIn('127.0.2.1', 'admin@acme.io', PASSWORD)
  const answeredSoFar = [...statuses.values()].reduce((sum, n) => sum + n, 0)
  console.log(
    `sign-in flood: 480 wrong sign-ins from 24 addresses (${answeredSoFar} answered so far: ${JSON.stringify(Object.fromEntries(statuses))}); ` +
      `the admin's correct sign-in from a new address: ${during.status} in ${Math.round(during.ms)} ms (alone: ${alone.map(Math.round).join(', ')} ms)`,
  )
  expect(during.status).toBe(200)
  // Within a second, or, on a machine so loaded that one check alone takes longer, within
  // three lone sign-ins: it waits for the check running when it arrived, not for the queue.
  expect(during.ms).toBeLessThan(Math.max(1000, 3 * lone))
  // Every address was bounded: most of its 20 tries were refused at once, without a check.
  expect(statuses.get(429) ?? 0).toBeGreaterThan(24 * 10)
}, 120_000)
