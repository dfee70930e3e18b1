import type { App } from '../app.ts'
import { parleyCommand } from './parley-command.ts'

/**
 * On an empty database: a workspace, its first API key, a demo chatbot to talk to and a
 * one-time link that creates the first admin, announced once on stdout. The key and the link
 * are never logged; this banner is the only place they appear. The commands it suggests are
 * spelled the way Parley was started (`command`: the binary, or `npm run parley --` in a checkout).
 */
export async function firstStart(app: App, publicUrl: string, print: (line: string) => void, command = parleyCommand()): Promise<boolean> {
  if (await app.services.workspaces.hasWorkspaces()) return false
  const { key, workspaceId } = await app.services.workspaces.createKey({ name: 'first key' })
  const demo = await app.services.demo.create(workspaceId)
  const setup = await app.services.people.setupLink(workspaceId)
  print('')
  print('Parley created your first workspace. Its API key, shown this once:')
  print('')
  print(`  ${key}`)
  print('')
  print(`Send it as "Authorization: Bearer <key>". Make more with \`${command} keys create --name NAME\`.`)
  print(`A demo chatbot (${demo.chatbotId}) answers on ${publicUrl}/ (widget key ${demo.widgetKey}).`)
  print('')
  print('Create the first admin of the desk with this link (it works once, for 30 minutes):')
  print('')
  print(`  ${setup.url}`)
  print('')
  print(`Then the desk is at ${publicUrl}/app and the console at ${publicUrl}/app/console.`)
  print(`Used or expired? \`${command} users create --email E --name N --role admin\` prints a new link.`)
  print('')
  return true
}
