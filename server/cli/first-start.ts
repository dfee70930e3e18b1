import type { App } from '../app.ts'

/**
 * On an empty database: a workspace and its first API key, announced once on stdout.
 * The key is never logged; this banner is the only place it appears.
 */
export function firstStart(app: App, print: (line: string) => void): boolean {
  if (app.services.workspaces.hasWorkspaces()) return false
  const { key } = app.services.workspaces.createKey({ name: 'first key' })
  print('')
  print('Parley created your first workspace. Its API key, shown this once:')
  print('')
  print(`  ${key}`)
  print('')
  print('Send it as "Authorization: Bearer <key>". Make more with `parley keys create --name NAME`.')
  print('')
  return true
}
