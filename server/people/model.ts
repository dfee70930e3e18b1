import { t, type Static } from 'elysia'
import { Id, listOf, Timestamp } from '../http/common-model.ts'
import { nameText } from '../support/name-text.ts'
import { APP_LOCALES } from './app-locales.ts'

export const ROLES = ['admin', 'agent'] as const
export type Role = (typeof ROLES)[number]

const Role = t.Union(
  [t.Literal('admin'), t.Literal('agent')],
  { description: '`admin` may do everything; `agent` answers conversations and may not change keys, people, integrations, flows or chatbots' },
)
const Email = t.String({ minLength: 3, maxLength: 254, examples: ['sam@acme.io'] })
const DisplayName = nameText(100, { examples: ['Sam Lee'] })
/** Long enough to resist guessing, bounded so that hashing cannot be made to take long. */
export const Password = t.String({ minLength: 10, maxLength: 256, description: 'at least 10 characters' })
const OneTimeToken = t.String({ minLength: 1, maxLength: 200, description: 'the token after `#token=` in a setup, invite or reset link' })

/** One of the app's languages; an unknown tag is refused (422 naming /locale), never kept. */
const AppLocale = t.UnionEnum(APP_LOCALES, { description: `the language of the desk and the console: ${APP_LOCALES.map((tag) => `\`${tag}\``).join(', ')}`, examples: ['es'] })
const ChosenLocale = t.Union([AppLocale, t.Null()], { description: 'the language the person chose for the app; null follows their browser' })

export const User = t.Object({
  id: Id,
  email: t.String(),
  display_name: t.String(),
  role: Role,
  status: t.Union([t.Literal('invited'), t.Literal('active'), t.Literal('disabled')], {
    description: '`invited` until the person sets a password from their link',
  }),
  locale: ChosenLocale,
  created_at: Timestamp,
  updated_at: t.Union([Timestamp, t.Null()]),
})
export type User = Static<typeof User>

export const UserList = listOf(User)

export const UserParams = t.Object({ user_id: t.String({ description: 'user ULID' }) })

export const CreateUser = t.Object({ email: Email, display_name: DisplayName, role: Role }, { additionalProperties: false })
export type CreateUser = Static<typeof CreateUser>

export const UpdateUser = t.Object(
  {
    display_name: t.Optional(DisplayName),
    role: t.Optional(Role),
    disabled: t.Optional(t.Boolean({ description: 'a disabled person is signed out everywhere and cannot sign in' })),
  },
  { additionalProperties: false },
)
export type UpdateUser = Static<typeof UpdateUser>

/** What a signed-in person may change of their own (PATCH /auth/me). */
export const UpdateMe = t.Object({ locale: t.Optional(ChosenLocale) }, { additionalProperties: false })
export type UpdateMe = Static<typeof UpdateMe>

export const OneTimeLink = t.Object({
  url: t.String({ description: 'give it to the person: it opens the desk page that sets their password; it works once' }),
  purpose: t.Union([t.Literal('setup'), t.Literal('invite'), t.Literal('reset')]),
  expires_at: Timestamp,
})
export type OneTimeLink = Static<typeof OneTimeLink>

export const CreatedUser = t.Object({ user: User, invite: OneTimeLink })

export const SignIn = t.Object(
  {
    email: t.String({ minLength: 1, maxLength: 254 }),
    password: t.String({ minLength: 1, maxLength: 256 }),
    workspace_id: t.Optional(t.String({ description: 'needed only when the same e-mail and password open several workspaces' })),
  },
  { additionalProperties: false },
)
export type SignIn = Static<typeof SignIn>

export const AcceptInvite = t.Object(
  {
    token: OneTimeToken,
    password: Password,
    display_name: t.Optional(DisplayName),
    email: t.Optional(t.String({ minLength: 3, maxLength: 254, description: 'required with a setup link (the first admin), ignored otherwise' })),
  },
  { additionalProperties: false },
)
export type AcceptInvite = Static<typeof AcceptInvite>

export const LinkQuestion = t.Object({ token: OneTimeToken }, { additionalProperties: false })
export const LinkAnswer = t.Object({
  purpose: t.Union([t.Literal('setup'), t.Literal('invite'), t.Literal('reset')]),
  email: t.Union([t.String(), t.Null()], { description: 'the e-mail the person signs in with; null for a setup link (the first admin chooses it)' }),
  expires_at: Timestamp,
})

export const SessionView = t.Object({
  created_at: Timestamp,
  expires_at: Timestamp,
})

export const Me = t.Object({ user: User, workspace_id: Id, session: SessionView })
export type Me = Static<typeof Me>

export const SignedInSession = t.Object({
  id: Id,
  created_at: Timestamp,
  last_seen_at: Timestamp,
  expires_at: Timestamp,
  user_agent: t.Union([t.String(), t.Null()]),
  address: t.Union([t.String(), t.Null()]),
  current: t.Boolean({ description: 'the session this request was made with' }),
})
export const SessionList = t.Object({ items: t.Array(SignedInSession) })
