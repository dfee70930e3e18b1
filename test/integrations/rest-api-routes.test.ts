import { expect } from 'bun:test'
import { type Scenario, scenarios } from '../support/scenarios.ts'
import { ISO_MS, type IntegrationContext, integrationContext, integrationsOf, loggedText, outcomeRow, ULID } from './support/integration-context.ts'

type Row = Scenario<IntegrationContext>
const restApi = (botId: string) => integrationsOf(botId, '/rest-api')
const SECRET = /^whsec_[A-Za-z0-9+/]{43}=$/
const masked = (secret: string) => `••••${secret.slice(-4)}`

function create(name: string, body: unknown, outcome: number | string[], check?: Row['check']): Row {
  return outcomeRow('POST', (c) => restApi(c.fresh()), name, body, outcome, check)
}
const url = (name: string, webhookUrl: unknown, outcome: number | string[], check?: Row['check']) =>
  create(name, { webhook_url: webhookUrl }, outcome, check)
const refusedBecause = (text: string): Row['check'] => ({ body }) => expect(body.errors[0].message).toContain(text)

function patch(name: string, body: unknown, outcome: number | string[], check?: Row['check']): Row {
  return outcomeRow('PATCH', (c) => restApi(c.botId), name, body, outcome, check)
}

scenarios<IntegrationContext>(
  'rest-api integrations',
  (app) => integrationContext(app),
  [
    {
      name: 'creating answers 201 with the record and the signing secret, shown this once',
      method: 'POST',
      path: (c) => restApi(c.botId),
      body: { webhook_url: 'https://hooks.example.com/parley', name: 'Back office' },
      status: 201,
      check: ({ body }, c) => {
        expect(body).toEqual({
          id: expect.stringMatching(ULID),
          chatbot_id: c.botId,
          type: 'rest-api',
          name: 'Back office',
          is_active: true,
          config: { webhook_url: 'https://hooks.example.com/parley', signing_secret: masked(body.signing_secret) },
          created_at: expect.stringMatching(ISO_MS),
          updated_at: null,
          signing_secret: expect.stringMatching(SECRET),
        })
        // 32 random bytes, Standard Webhooks style.
        expect(Buffer.from(body.signing_secret.slice(6), 'base64')).toHaveLength(32)
        c.saved.created = body
        c.saved.secrets = [body.signing_secret]
      },
    },
    {
      name: 'a second rest-api integration for the same chatbot answers 409 integration_exists',
      method: 'POST',
      path: (c) => restApi(c.botId),
      body: { webhook_url: 'https://other.example.com/' },
      status: 409,
      code: 'integration_exists',
    },
    {
      name: 'GET shows the secret masked only',
      method: 'GET',
      path: (c) => restApi(c.botId),
      status: 200,
      check: ({ body, text }, c) => {
        const { signing_secret, ...record } = c.saved.created
        expect(body).toEqual(record)
        expect(text).not.toContain(signing_secret)
      },
    },
    {
      name: 'GET by id shows the secret masked only',
      method: 'GET',
      path: (c) => integrationsOf(c.botId, `/${c.saved.created.id}`),
      status: 200,
      check: ({ body, text }, c) => {
        expect(body.config.signing_secret).toBe(masked(c.saved.created.signing_secret))
        expect(text).not.toContain(c.saved.created.signing_secret)
      },
    },
    create('name is optional and has a default', { webhook_url: 'https://example.com/hook' }, 201, ({ body }) => expect(body.name).toBe('REST API')),
    create('two integrations get different secrets', { webhook_url: 'https://example.com/hook' }, 201, ({ body }, c) =>
      expect(body.signing_secret).not.toBe(c.saved.created.signing_secret),
    ),
    create('webhook_url is required', { name: 'x' }, ['/webhook_url']),
    create('name must not be empty', { webhook_url: 'https://example.com/', name: '' }, ['/name']),
    create('name must be a string', { webhook_url: 'https://example.com/', name: 1 }, ['/name']),
    create('name may have 200 characters', { webhook_url: 'https://example.com/', name: 'n'.repeat(200) }, 201),
    create('name may not have 201 characters', { webhook_url: 'https://example.com/', name: 'n'.repeat(201) }, ['/name']),
    create('unknown fields are refused', { webhook_url: 'https://example.com/', secret: 'mine' }, ['/secret']),
    create('signing_secret cannot be chosen by the client', { webhook_url: 'https://example.com/', signing_secret: 'whsec_x' }, ['/signing_secret']),
    url('webhook_url takes http', 'http://hooks.example.com/in', 201),
    url('webhook_url takes a port, a path and a query', 'https://hooks.example.com:8443/in/parley?tenant=7', 201),
    url('webhook_url takes a public IP address', 'https://93.184.215.14/hook', 201),
    url('webhook_url may be 2048 characters', `https://example.com/${'p'.repeat(2048 - 20)}`, 201),
    url('webhook_url may not be 2049 characters', `https://example.com/${'p'.repeat(2049 - 20)}`, ['/webhook_url']),
    url('webhook_url must be a string', 42, ['/webhook_url']),
    url('webhook_url must not be empty', '', ['/webhook_url']),
    url('webhook_url must be absolute', '/relative/hook', ['/webhook_url'], refusedBecause('must be an absolute URL')),
    url('webhook_url must not lack a scheme', 'hooks.example.com/in', ['/webhook_url']),
    url('webhook_url must use http or https', 'ftp://hooks.example.com/in', ['/webhook_url'], refusedBecause('must use http or https')),
    url('webhook_url must not carry credentials', 'https://user:pass@hooks.example.com/', ['/webhook_url'], refusedBecause('user name or password')),
    url('webhook_url must not contain spaces', 'https://hooks.example.com/a b', ['/webhook_url'], refusedBecause('spaces')),
    url('webhook_url must not point to loopback', 'http://127.0.0.1:8080/hook', ['/webhook_url'], refusedBecause('a loopback address')),
    url('webhook_url must not point to localhost', 'http://localhost:8080/hook', ['/webhook_url'], refusedBecause('a local host name')),
    url('webhook_url must not point to a private network', 'http://10.0.0.5/hook', ['/webhook_url'], refusedBecause('a private address')),
    url('webhook_url must not point to cloud metadata', 'http://169.254.169.254/latest/', ['/webhook_url'], refusedBecause('link-local')),
    url('webhook_url must not hide loopback in IPv6', 'http://[::ffff:127.0.0.1]/', ['/webhook_url'], refusedBecause('IPv4-mapped')),
    url('webhook_url must not hide loopback in hex IPv6', 'http://[0:0:0:0:0:ffff:7f00:1]/', ['/webhook_url'], refusedBecause('the IPv4-mapped form of a loopback address')),
    url('webhook_url must not hide cloud metadata in IPv4-translated IPv6', 'http://[::ffff:0:169.254.169.254]/', ['/webhook_url'], refusedBecause('the IPv4-translated form of a link-local address')),
    url('webhook_url must not point to a Teredo address', 'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/', ['/webhook_url'], refusedBecause('a Teredo tunnel address')),
    url('webhook_url must not point to a documentation address', 'http://192.0.2.10/', ['/webhook_url'], refusedBecause('a documentation address')),
    url('webhook_url must not point to IPv6 loopback', 'http://[::1]/', ['/webhook_url']),
    {
      ...url('a refused address says how an operator allows it', 'http://192.168.1.10/hook', ['/webhook_url']),
      check: ({ body }) =>
        expect(body.errors[0].message).toBe(
          'points to 192.168.1.10, a private address; Parley does not send requests to private or local addresses. ' +
            'An operator can allow it by adding "192.168.1.10" to PARLEY_OUTBOUND_ALLOW',
        ),
    },

    // PATCH
    patch('an empty PATCH answers 200 and changes nothing', {}, 200, ({ body }, c) => {
      expect(body.updated_at).toBeNull()
      expect(body).not.toHaveProperty('signing_secret')
      expect(body.config.signing_secret).toBe(c.saved.created.config.signing_secret)
    }),
    patch('webhook_url and name change when sent, and the secret stays', { webhook_url: 'https://new.example.com/hook', name: 'Renamed' }, 200, ({ body }, c) => {
      expect(body).toMatchObject({ name: 'Renamed', config: { webhook_url: 'https://new.example.com/hook', signing_secret: c.saved.created.config.signing_secret } })
      expect(body.updated_at).toMatch(ISO_MS)
      expect(body).not.toHaveProperty('signing_secret')
    }),
    patch('webhook_url in a PATCH is checked like a create', { webhook_url: 'http://10.1.1.1/' }, ['/webhook_url']),
    patch('webhook_url null is refused', { webhook_url: null }, ['/webhook_url']),
    patch('rotate_secret must be a boolean', { rotate_secret: 'yes' }, ['/rotate_secret']),
    patch('rotate_secret false changes nothing', { rotate_secret: false }, 200, ({ body }, c) => {
      expect(body).not.toHaveProperty('signing_secret')
      expect(body.config.signing_secret).toBe(c.saved.created.config.signing_secret)
    }),
    patch('rotate_secret true makes a new secret and shows it once', { rotate_secret: true }, 200, ({ body }, c) => {
      expect(body.signing_secret).toMatch(SECRET)
      expect(body.signing_secret).not.toBe(c.saved.created.signing_secret)
      expect(body.config.signing_secret).toBe(masked(body.signing_secret))
      c.saved.secrets.push(body.signing_secret)
    }),
    {
      name: 'after a rotation GET shows the new secret masked, and neither secret in full',
      method: 'GET',
      path: (c) => restApi(c.botId),
      status: 200,
      check: ({ body, text }, c) => {
        expect(body.config.signing_secret).toBe(masked(c.saved.secrets[1]))
        for (const secret of c.saved.secrets) expect(text).not.toContain(secret)
      },
    },
    patch('is_active false', { is_active: false }, 200, ({ body }) => expect(body.is_active).toBe(false)),
    patch('unknown PATCH fields are refused', { signing_secret: 'whsec_mine' }, ['/signing_secret']),
    {
      name: 'the list never carries a secret',
      method: 'GET',
      path: (c) => integrationsOf(c.botId),
      status: 200,
      check: ({ body, text }, c) => {
        expect(body.items).toEqual([{ id: c.saved.created.id, chatbot_id: c.botId, type: 'rest-api', is_active: false, created_at: c.saved.created.created_at }])
        for (const secret of c.saved.secrets) expect(text).not.toContain(secret)
      },
    },
    {
      name: 'no signing secret appears in any log line',
      method: 'GET',
      path: (c) => restApi(c.botId),
      status: 200,
      check: async (_, c) => {
        const logged = await loggedText(c.app)
        expect(logged).toContain('rest-api')
        for (const secret of c.saved.secrets) expect(logged).not.toContain(secret)
        expect(logged).not.toContain('whsec_')
      },
    },
  ],
)

scenarios<IntegrationContext>(
  'rest-api integrations with PARLEY_OUTBOUND_ALLOW',
  (app) => integrationContext(app, 6),
  [
    url('an allowed host name may be local', 'http://receiver.internal:8080/hook', 201),
    url('an allowed CIDR range may be private', 'http://10.20.30.40/hook', 201),
    url('an allowed single address may be loopback', 'http://127.0.0.1:9000/hook', 201),
    url('other private addresses stay refused', 'http://192.168.0.1/', ['/webhook_url']),
    url('other loopback addresses stay refused', 'http://127.0.0.2/', ['/webhook_url']),
    url('localhost stays refused unless named', 'http://localhost/', ['/webhook_url']),
  ],
  { PARLEY_OUTBOUND_ALLOW: 'receiver.internal,10.0.0.0/8,127.0.0.1' },
)
