import { Elysia } from 'elysia'
import type { Authenticate } from './authenticate.ts'
import { PageQuery } from '../http/common-model.ts'
import { errorResponses } from '../http/error-responses.ts'
import { CreatedUser, CreateUser, OneTimeLink, UpdateUser, User, UserList, UserParams } from './model.ts'
import type { PeopleService } from './service.ts'

const tags = ['People']
const ADMIN_ONLY = 'With a session cookie, admins only (an `agent` gets 403 forbidden).'

export function userRoutes(auth: Authenticate, people: PeopleService) {
  return new Elysia({ prefix: '/users' })
    .use(auth)
    .get('/', ({ workspaceId, query }) => people.list(workspaceId, query), {
      query: PageQuery,
      response: { 200: UserList, ...errorResponses(422) },
      detail: { tags, summary: 'List the people of the workspace', description: 'Oldest first.' },
    })
    .post('/', async ({ workspaceId, body, status }) => status(201, await people.invite(workspaceId, body)), {
      body: CreateUser,
      response: { 201: CreatedUser, ...errorResponses(400, 403, 409, 413, 415, 422) },
      detail: {
        tags,
        summary: 'Invite a person',
        description: `Creates the person (status invited) and a one-time invite link, valid 7 days, to hand over however you like: no mail server is involved. ${ADMIN_ONLY}`,
      },
    })
    .get('/:user_id', ({ workspaceId, params }) => people.get(workspaceId, params.user_id), {
      params: UserParams,
      response: { 200: User, ...errorResponses(404) },
      detail: { tags, summary: 'Get a person' },
    })
    .patch('/:user_id', ({ workspaceId, params, body }) => people.update(workspaceId, params.user_id, body), {
      params: UserParams,
      body: UpdateUser,
      response: { 200: User, ...errorResponses(400, 403, 404, 409, 413, 415, 422) },
      detail: {
        tags,
        summary: 'Change a person: name, role, disabled',
        description: `Disabling signs them out everywhere. The last active admin cannot be demoted or disabled (409 last_admin). ${ADMIN_ONLY}`,
      },
    })
    .post('/:user_id/invite-link', async ({ workspaceId, params, status }) => status(201, await people.link(workspaceId, params.user_id)), {
      params: UserParams,
      response: { 201: OneTimeLink, ...errorResponses(403, 404, 409) },
      detail: {
        tags,
        summary: 'A new one-time link for a person',
        description: `An invite link (7 days) for someone who has not set a password yet, else a password reset link (24 hours). Earlier links of theirs stop working. ${ADMIN_ONLY}`,
      },
    })
}
