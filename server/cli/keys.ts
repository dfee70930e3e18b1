import { nameProblem } from '../support/name-text.ts'
import type { WorkspaceService } from '../workspaces/service.ts'
import { parleyCommand } from './parley-command.ts'
import { terminalText as safe } from './terminal-text.ts'

/** As the API's key name (server/workspaces/key-model.ts). */
const KEY_NAME_MAX_LENGTH = 100

export interface KeysCommand {
  action: 'create' | 'list' | 'revoke'
  name?: string
  workspaceId?: string
  newWorkspace?: boolean
  prefix?: string
}

/** `parley keys ...`: what it prints goes to stdout; the key alone for `create`, so scripts can capture it. */
export async function keys(workspaces: WorkspaceService, command: KeysCommand, print: (line: string) => void): Promise<void> {
  switch (command.action) {
    case 'create': {
      if (!command.name) throw new Error('keys create needs --name NAME')
      if (command.workspaceId && command.newWorkspace) throw new Error('give --workspace or --new-workspace, not both')
      const problem = nameProblem(command.name, KEY_NAME_MAX_LENGTH)
      if (problem) throw new Error(`--name ${problem}`)
      const created = await workspaces.createKey({
        name: command.name,
        workspaceId: command.workspaceId,
        newWorkspace: command.newWorkspace,
      })
      print(created.key)
      return
    }
    case 'list': {
      const rows = await workspaces.listKeys()
      if (rows.length === 0) return print(`no API keys yet: run \`${parleyCommand()} keys create --name NAME\``)
      print(['PREFIX', 'NAME', 'WORKSPACE', 'CREATED', 'REVOKED'].join('\t'))
      for (const row of rows) {
        print([row.prefix, row.name, row.workspace_id, row.created_at, row.revoked_at ?? '-'].map(safe).join('\t'))
      }
      return
    }
    case 'revoke': {
      if (!command.prefix) throw new Error('keys revoke needs the key prefix shown by `parley keys list`')
      const revoked = await workspaces.revokeKey(command.prefix)
      if (!revoked) throw new Error(`no active key with prefix ${safe(command.prefix)}`)
      print(`revoked ${safe(revoked.prefix)} (${safe(revoked.name)})`)
      return
    }
  }
}
