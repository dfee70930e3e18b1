import type { App } from '../app.ts'

/**
 * On an empty database: a workspace, its first API key and a demo chatbot to talk to,
 * announced once on stdout. The key is never logged; this banner is the only place it appears.
 */
export function firstStart(app: App, publicUrl: string, print: (line: string) => void): boolean {
  if (app.services.workspaces.hasWorkspaces()) return false
  const { key, workspaceId } = app.services.workspaces.createKey({ name: 'first key' })
  const demo = app.services.demo.create(workspaceId)
  print('')
  print('Parley created your first workspace. Its API key, shown this once:')
  print('')
  print(`  ${key}`)
  print('')
  print('Send it as "Authorization: Bearer <key>". Make more with `parley keys create --name NAME`.')
  print(`A demo chatbot (${demo.chatbotId}) answers on ${publicUrl}/ (widget key ${demo.widgetKey}).`)
  print('')
  return true
}
