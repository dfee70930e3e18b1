import { describe, expect, test } from 'bun:test'
import { parleyCommand } from '../../server/cli/parley-command.ts'

/** The start-up text suggests commands that work the way Parley was started. */
describe('the command to run Parley again', () => {
  const binary = { main: '/$bunfs/root/parley', execPath: '/srv/parley/dist/parley', cwd: '/srv/parley', path: '/usr/local/bin:/usr/bin' }

  test('from a checkout (npm start, bun server/main.ts): the npm script', () => {
    expect(parleyCommand({ main: '/srv/parley/server/main.ts', execPath: '/srv/parley/node_modules/bun/bin/bun.exe', cwd: '/srv/parley', path: '/usr/bin' })).toBe('npm run parley --')
  })

  test('the binary under the current folder: its relative path', () => {
    expect(parleyCommand(binary)).toBe('./dist/parley')
  })

  test('the binary on the PATH: its name', () => {
    expect(parleyCommand({ ...binary, execPath: '/usr/local/bin/parley', cwd: '/home/ada' })).toBe('parley')
  })

  test('the binary elsewhere: its full path', () => {
    expect(parleyCommand({ ...binary, cwd: '/home/ada' })).toBe('/srv/parley/dist/parley')
  })
})
