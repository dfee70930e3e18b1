import { Database } from 'bun:sqlite'
import { afterAll, beforeAll, describe, expect, test } from 'bun:test'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, relative } from 'node:path'
import { compiledParley } from '../support/compiled-parley.ts'
import { type RunningParley, runParley } from '../support/run-parley.ts'
import { TEST_PASSWORD_HASHING } from '../support/test-password-hashing.ts'

const binary = compiledParley()
const work = mkdtempSync(join(tmpdir(), 'parley-users-'))
const dataDir = join(work, 'data')
const PUBLIC_URL = 'http://desk.acme.test:8080'
const env = { PARLEY_DATA_DIR: dataDir, PARLEY_PUBLIC_URL: PUBLIC_URL, ...TEST_PASSWORD_HASHING }
const PASSWORD = 'correct horse battery staple'
afterAll(() => rmSync(work, { recursive: true, force: true }))

function parley(args: string[], stdin?: string, extra: Record<string, string> = {}) {
  const result = Bun.spawnSync([binary, ...args], { cwd: work, env: { ...process.env, ...env, ...extra }, stdin: stdin === undefined ? 'ignore' : new TextEncoder().encode(stdin) })
  return { code: result.exitCode, stdout: result.stdout.toString(), stderr: result.stderr.toString() }
}

const linkIn = (text: string, path: string) => new RegExp(`${PUBLIC_URL}${path}#token=(pt_[0-9A-Za-z]{40})`).exec(text)?.[1]

async function accept(server: RunningParley, body: Record<string, string>) {
  const response = await fetch(`${server.url}/api/dev/v1/auth/accept-invite`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  return { status: response.status, body: (await response.json()) as any }
}

async function signIn(server: RunningParley, email: string, password: string) {
  const response = await fetch(`${server.url}/api/dev/v1/auth/sign-in`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password }) })
  return response.status
}

describe('people from the CLI of the compiled binary', () => {
  let setupToken: string | undefined
  let banner = ''

  beforeAll(async () => {
    const server = await runParley([binary], env)
    banner = server.output()
    await server.stop('SIGTERM')
    setupToken = linkIn(banner, '/app/setup')
  })

  test('the first start prints a one-time link for the first admin beside the API key, and logs neither', () => {
    expect(banner).toContain('Create the first admin of the desk with this link (it works once, for 30 minutes):')
    // The command to make another link, spelled as this binary is reached from where it was started.
    expect(banner).toContain(`\`./${relative(process.cwd(), binary)} users create --email E --name N --role admin\` prints a new link.`)
    expect(banner).toContain(`the desk is at ${PUBLIC_URL}/app and the console at ${PUBLIC_URL}/app/console`)
    expect(setupToken).toBeDefined()
    const logLines = banner.split('\n').filter((line) => line.startsWith('{'))
    expect(logLines.length).toBeGreaterThan(0)
    expect(logLines.join('\n')).not.toContain(setupToken as string)
  })

  test('users list on a new install says there is nobody yet', () => {
    const result = parley(['users', 'list'])
    expect(result.code).toBe(0)
    // Run from another folder, the binary is named by its full path: the command works as printed.
    expect(result.stdout.trim()).toBe(`no users yet: run \`${binary} users create --email E --name N --role admin\``)
  })

  test('users create prints an invite link; --password-stdin makes a person who can sign in at once', () => {
    const invited = parley(['users', 'create', '--email', 'sam@acme.io', '--name', 'Sam', '--role', 'agent'])
    expect(invited.stderr).toBe('')
    expect(invited.code).toBe(0)
    expect(linkIn(invited.stdout, '/app/invite')).toBeDefined()
    const direct = parley(['users', 'create', '--email', 'kim@acme.io', '--name', 'Kim Park', '--role', 'admin', '--password-stdin'], `${PASSWORD}\n`)
    expect(direct.stderr).toBe('')
    expect(direct.stdout.trim()).toBe('created kim@acme.io (admin); they can sign in now')
  })

  test('users create refuses what it cannot do, with one line each', () => {
    expect(parley(['users', 'create', '--email', 'x@acme.io', '--name', 'X', '--role', 'owner']).stderr.trim()).toBe('parley: users create needs --role admin or --role agent')
    expect(parley(['users', 'create', '--email', 'SAM@acme.io', '--name', 'X', '--role', 'agent']).stderr.trim()).toBe('parley: someone in this workspace already has the e-mail SAM@acme.io')
    expect(parley(['users', 'create', '--email', 'nope', '--name', 'X', '--role', 'agent']).stderr.trim()).toBe('parley: email is not an e-mail address')
    expect(parley(['users', 'create', '--email', 'y@acme.io', '--name', 'Y', '--role', 'agent', '--password-stdin'], 'short\n').stderr.trim()).toBe('parley: the password must have at least 10 characters')
    expect(parley(['users', 'create', '--email', 'y@acme.io', '--name', 'Y', '--role', 'agent', '--workspace', 'nope']).stderr.trim()).toBe('parley: no workspace with id nope')
    expect(parley(['users', 'reset-password', '--email', 'ghost@acme.io']).code).toBe(1)
    expect(parley(['users', 'rename']).code).toBe(64)
  })

  test('users list shows everyone and no secret', () => {
    const result = parley(['users', 'list'])
    const lines = result.stdout.trim().split('\n')
    expect(lines[0]).toBe('EMAIL\tNAME\tROLE\tSTATUS\tWORKSPACE\tCREATED')
    expect(lines.slice(1).map((line) => line.split('\t').slice(0, 4))).toEqual([
      ['sam@acme.io', 'Sam', 'agent', 'invited'],
      ['kim@acme.io', 'Kim Park', 'admin', 'active'],
    ])
    expect(result.stdout).not.toMatch(/argon2|pt_|ps_/)
  })

  test('what users list and keys list print cannot steer the terminal: control and bidi characters are shown escaped', () => {
    // Names stored before they were checked (the API and the CLI refuse them now), and e-mails as stored.
    const db = new Database(join(dataDir, 'parley.db'))
    db.run("UPDATE users SET display_name = 'Sam' || char(27) || ']0;owned' || char(7) || char(27) || '[2J' || char(155) || 'x' WHERE email = 'sam@acme.io'")
    db.run("UPDATE api_keys SET name = 'ops' || char(8238) || 'exe.txt' || char(10) || 'fake line'")
    db.close()
    const users = parley(['users', 'list'])
    expect(users.code).toBe(0)
    expect(users.stdout).toContain('sam@acme.io\tSam\\x1b]0;owned\\x07\\x1b[2J\\x9bx\tagent')
    const keys = parley(['keys', 'list'])
    expect(keys.code).toBe(0)
    expect(keys.stdout).toContain('ops\\u202eexe.txt\\x0afake line')
    for (const output of [users.stdout, keys.stdout]) {
      // Tabs between columns and one newline per row are the only control characters left.
      expect(output).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/)
    }
    expect(keys.stdout.trim().split('\n')).toHaveLength(2)
  })

  test('users create and keys create refuse a name with control or bidi characters', () => {
    const refused = parley(['users', 'create', '--email', 'esc@acme.io', '--name', 'Esc\u001b[2J', '--role', 'agent'])
    expect(refused.code).toBe(1)
    expect(refused.stderr.trim()).toBe('parley: --name must not contain control characters (such as ESC or a line break) or bidirectional overrides (such as U+202E)')
    const key = parley(['keys', 'create', '--name', 'rtl\u202eexe'])
    expect(key.code).toBe(1)
    expect(key.stderr.trim()).toBe('parley: --name must not contain control characters (such as ESC or a line break) or bidirectional overrides (such as U+202E)')
    expect(parley(['users', 'list']).stdout).not.toContain('esc@acme.io')
  })

  test('the served binary accepts the setup link once, the reset link, and the password set from stdin', async () => {
    const reset = parley(['users', 'reset-password', '--email', 'KIM@acme.io'])
    expect(reset.code).toBe(0)
    const resetToken = linkIn(reset.stdout, '/app/reset-password') as string
    const server = await runParley([binary], env)
    try {
      expect(server.output()).not.toContain('/app/setup')
      expect(await signIn(server, 'kim@acme.io', PASSWORD)).toBe(200)
      const admin = await accept(server, { token: setupToken as string, password: PASSWORD, email: 'root@acme.io', display_name: 'Root' })
      expect(admin.status).toBe(200)
      expect(admin.body.user).toMatchObject({ email: 'root@acme.io', role: 'admin', status: 'active' })
      expect((await accept(server, { token: setupToken as string, password: PASSWORD, email: 'again@acme.io' })).body.code).toBe('invalid_token')
      expect((await accept(server, { token: resetToken, password: `${PASSWORD}!` })).status).toBe(200)
      expect(await signIn(server, 'kim@acme.io', PASSWORD)).toBe(401)
      expect(await signIn(server, 'kim@acme.io', `${PASSWORD}!`)).toBe(200)
    } finally {
      await server.stop('SIGTERM')
    }
  })

  test('users commands refuse to run where there is no database, and create none', () => {
    const elsewhere = mkdtempSync(join(work, 'elsewhere-'))
    const result = parley(['users', 'list'], undefined, { PARLEY_DATA_DIR: join(elsewhere, 'data') })
    expect(result.code).toBe(1)
    expect(result.stderr.trim()).toBe(`parley: no database at ${join(elsewhere, 'data', 'parley.db')}; run this where parley serve keeps its data, or set PARLEY_DATA_DIR`)
    expect(parley(['users', 'create', '--email', 'a@acme.io', '--name', 'A', '--role', 'admin'], undefined, { PARLEY_DATA_DIR: join(elsewhere, 'data') }).code).toBe(1)
    expect(existsSync(join(elsewhere, 'data', 'parley.db'))).toBe(false)
  })
})
