import { expect } from 'bun:test'
import { type Scenario, scenarios } from '../support/scenarios.ts'
import { ISO_MS, type IntegrationContext, integrationContext, integrationsOf, loggedText, ULID } from './support/integration-context.ts'

type Row = Scenario<IntegrationContext>
const chatapp = (botId: string) => integrationsOf(botId, '/chatapp')

const ACCESS_TOKEN = 'EAAGm0PX4ZCpsBAKZCZCtoken0123456789abcdefZD9x'
const VERIFY_TOKEN = 'my-verify-token-2718'
const APP_SECRET = '0123456789abcdef0123456789abcd3f'
const NEW_ACCESS_TOKEN = 'EAAGnewtokenAAAAAAAAAAAAAAAAAAAA9q7w'
const SHORT_VERIFY_TOKEN = 'hunter2'
const valid = { phone_number_id: '106540352242922', access_token: ACCESS_TOKEN, verify_token: VERIFY_TOKEN }
const ALL_SECRETS = [ACCESS_TOKEN, VERIFY_TOKEN, APP_SECRET, NEW_ACCESS_TOKEN, SHORT_VERIFY_TOKEN]

function create(name: string, body: Record<string, unknown>, outcome: number | string[], check?: Row['check']): Row {
  const failing = Array.isArray(outcome)
  return {
    name,
    method: 'POST',
    path: (c) => chatapp(c.fresh()),
    body: { ...valid, ...body },
    status: failing ? 422 : outcome,
    code: failing ? 'validation_failed' : undefined,
    errorPaths: failing ? outcome : undefined,
    check,
  }
}
const without = (field: keyof typeof valid, name: string): Row => {
  const { [field]: _, ...rest } = valid
  return { ...create(name, {}, [`/${field}`]), body: rest }
}

function patch(name: string, body: unknown, outcome: number | string[], check?: Row['check']): Row {
  const failing = Array.isArray(outcome)
  return {
    name,
    method: 'PATCH',
    path: (c) => chatapp(c.botId),
    body,
    status: failing ? 422 : outcome,
    code: failing ? 'validation_failed' : undefined,
    errorPaths: failing ? outcome : undefined,
    check,
  }
}

scenarios<IntegrationContext>(
  'chatapp integrations',
  (app) => integrationContext(app),
  [
    {
      name: 'creating answers 201 with tokens masked and the callback URL to paste into the provider',
      method: 'POST',
      path: (c) => chatapp(c.botId),
      body: { ...valid, app_secret: APP_SECRET, name: 'WhatsApp line' },
      status: 201,
      check: ({ body, text }, c) => {
        expect(body).toEqual({
          id: expect.stringMatching(ULID),
          chatbot_id: c.botId,
          type: 'chatapp',
          name: 'WhatsApp line',
          is_active: true,
          config: {
            phone_number_id: '106540352242922',
            access_token: '••••ZD9x',
            verify_token: '••••2718',
            app_secret: '••••cd3f',
            callback_url: `http://parley.test/hooks/chatapp/${body.id}`,
          },
          created_at: expect.stringMatching(ISO_MS),
          updated_at: null,
        })
        for (const secret of ALL_SECRETS) expect(text).not.toContain(secret)
        c.saved.created = body
      },
    },
    {
      name: 'a second chatapp integration for the same chatbot answers 409 integration_exists',
      method: 'POST',
      path: (c) => chatapp(c.botId),
      body: valid,
      status: 409,
      code: 'integration_exists',
    },
    {
      name: 'GET answers the same masked record',
      method: 'GET',
      path: (c) => chatapp(c.botId),
      status: 200,
      check: ({ body, text }, c) => {
        expect(body).toEqual(c.saved.created)
        for (const secret of ALL_SECRETS) expect(text).not.toContain(secret)
      },
    },
    {
      name: 'GET by id answers the same masked record',
      method: 'GET',
      path: (c) => integrationsOf(c.botId, `/${c.saved.created.id}`),
      status: 200,
      check: ({ body }, c) => expect(body).toEqual(c.saved.created),
    },
    create('name and app_secret are optional', {}, 201, ({ body }) => {
      expect(body.name).toBe('Messaging app')
      expect(body.config.app_secret).toBeNull()
    }),
    create('a secret shorter than 12 characters is shown as •••• alone', { verify_token: SHORT_VERIFY_TOKEN }, 201, ({ body }) =>
      expect(body.config.verify_token).toBe('••••'),
    ),
    without('phone_number_id', 'phone_number_id is required'),
    without('access_token', 'access_token is required'),
    without('verify_token', 'verify_token is required'),
    { ...create('every missing field is named', {}, ['/phone_number_id', '/access_token', '/verify_token']), body: {} },
    create('phone_number_id must be a string', { phone_number_id: 106540352242922 }, ['/phone_number_id']),
    create('phone_number_id must not be empty', { phone_number_id: '' }, ['/phone_number_id']),
    create('phone_number_id may not contain a slash', { phone_number_id: '1065/messages' }, ['/phone_number_id']),
    create('phone_number_id may have 64 characters', { phone_number_id: '1'.repeat(64) }, 201),
    create('phone_number_id may not have 65 characters', { phone_number_id: '1'.repeat(65) }, ['/phone_number_id']),
    create('access_token must not be empty', { access_token: '' }, ['/access_token']),
    create('access_token must not contain spaces', { access_token: 'Bearer EAAG' }, ['/access_token']),
    create('access_token must be a string', { access_token: ['EAAG'] }, ['/access_token']),
    create('access_token may have 4096 characters', { access_token: 'a'.repeat(4096) }, 201),
    create('access_token may not have 4097 characters', { access_token: 'a'.repeat(4097) }, ['/access_token']),
    create('verify_token must not contain spaces', { verify_token: 'my token' }, ['/verify_token']),
    create('verify_token must not be empty', { verify_token: '' }, ['/verify_token']),
    create('verify_token may have 256 characters', { verify_token: 'v'.repeat(256) }, 201),
    create('verify_token may not have 257 characters', { verify_token: 'v'.repeat(257) }, ['/verify_token']),
    create('app_secret must not be empty', { app_secret: '' }, ['/app_secret']),
    create('app_secret must be a string', { app_secret: 5 }, ['/app_secret']),
    create('name must not be empty', { name: '' }, ['/name']),
    create('name may have 200 characters', { name: 'n'.repeat(200) }, 201),
    create('name may not have 201 characters', { name: 'n'.repeat(201) }, ['/name']),
    create('unknown fields are refused', { callback_url: 'https://x.example' }, ['/callback_url']),

    patch('an empty PATCH answers 200 and changes nothing', {}, 200, ({ body }, c) => expect(body).toEqual(c.saved.created)),
    patch('a new access_token replaces the old one and is shown masked', { access_token: NEW_ACCESS_TOKEN }, 200, ({ body, text }, c) => {
      expect(body.config).toEqual({ ...c.saved.created.config, access_token: '••••9q7w' })
      expect(body.updated_at).toMatch(ISO_MS)
      expect(text).not.toContain(NEW_ACCESS_TOKEN)
    }),
    patch('phone_number_id and name change when sent', { phone_number_id: '999', name: 'Line 2' }, 200, ({ body }) =>
      expect(body).toMatchObject({ name: 'Line 2', config: { phone_number_id: '999' } }),
    ),
    patch('PATCH fields are validated like a create', { phone_number_id: 'a b', verify_token: '' }, ['/phone_number_id', '/verify_token']),
    patch('access_token null is refused (it is required)', { access_token: null }, ['/access_token']),
    patch('app_secret null removes it', { app_secret: null }, 200, ({ body }) => expect(body.config.app_secret).toBeNull()),
    patch('app_secret can be set again', { app_secret: APP_SECRET }, 200, ({ body }) => expect(body.config.app_secret).toBe('••••cd3f')),
    patch('callback_url cannot be changed', { callback_url: 'https://mine.example' }, ['/callback_url']),
    patch('is_active false', { is_active: false }, 200, ({ body }) => expect(body.is_active).toBe(false)),
    patch('is_active true', { is_active: true }, 200, ({ body }) => expect(body.is_active).toBe(true)),
    {
      name: 'no token appears in any log line or list',
      method: 'GET',
      path: (c) => integrationsOf(c.botId),
      status: 200,
      check: async ({ text }, c) => {
        const logged = await loggedText(c.app)
        expect(logged).toContain('chatapp')
        for (const secret of ALL_SECRETS) {
          expect(logged).not.toContain(secret)
          expect(text).not.toContain(secret)
        }
      },
    },
  ],
)
