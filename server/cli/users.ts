import { ROLES, type Role } from '../people/model.ts'
import type { PeopleService } from '../people/service.ts'
import { nameProblem } from '../support/name-text.ts'
import { parleyCommand } from './parley-command.ts'
import { terminalText as safe } from './terminal-text.ts'

export interface UsersCommand {
  action: 'create' | 'reset-password' | 'list'
  email?: string
  name?: string
  role?: string
  /** The workspace; the first one when not given. */
  workspaceId: string
  /** Read from stdin by the caller when --password-stdin is given. */
  password?: string
}

const MIN_PASSWORD = 10
/** As the API's display_name (server/people/model.ts). */
const DISPLAY_NAME_MAX_LENGTH = 100

/**
 * `parley users ...`: the people of a workspace from the console. A link is printed alone on
 * its line, for scripts; a password is only ever read from stdin, never from an argument
 * (arguments show in `ps` and shell history).
 */
export async function users(people: PeopleService, command: UsersCommand, print: (line: string) => void): Promise<void> {
  switch (command.action) {
    case 'create': {
      if (!command.email) throw new Error('users create needs --email E')
      if (!command.name) throw new Error('users create needs --name N')
      if (!ROLES.includes(command.role as Role)) throw new Error('users create needs --role admin or --role agent')
      const problem = nameProblem(command.name, DISPLAY_NAME_MAX_LENGTH)
      if (problem) throw new Error(`--name ${problem}`)
      const input = { email: command.email, display_name: command.name, role: command.role as Role }
      if (command.password !== undefined) {
        if (command.password.length < MIN_PASSWORD) throw new Error(`the password must have at least ${MIN_PASSWORD} characters`)
        const user = await people.createWithPassword(command.workspaceId, input, command.password)
        print(`created ${safe(user.email)} (${user.role}); they can sign in now`)
        return
      }
      const { user, invite } = await people.invite(command.workspaceId, input)
      print(`created ${safe(user.email)} (${user.role}); give them this link to set a password (it works once, until ${invite.expires_at}):`)
      print(invite.url)
      return
    }
    case 'reset-password': {
      if (!command.email) throw new Error('users reset-password needs --email E')
      const user = await people.findByEmail(command.workspaceId, command.email)
      if (!user) throw new Error(`no user with the e-mail ${safe(command.email)} in workspace ${safe(command.workspaceId)}`)
      const link = await people.link(command.workspaceId, user.id)
      print(`give ${safe(user.email)} this link to set a new password (it works once, until ${link.expires_at}):`)
      print(link.url)
      return
    }
    case 'list': {
      const rows = await people.listEverywhere()
      if (rows.length === 0) return print(`no users yet: run \`${parleyCommand()} users create --email E --name N --role admin\``)
      print(['EMAIL', 'NAME', 'ROLE', 'STATUS', 'WORKSPACE', 'CREATED'].join('\t'))
      for (const row of rows) print([row.email, row.display_name, row.role, row.status, row.workspace_id, row.created_at].map(safe).join('\t'))
      return
    }
  }
}
