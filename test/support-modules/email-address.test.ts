import { describe, expect, test } from 'bun:test'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { checkEmailAddress } from '../../server/support/email-address.ts'

describe('checkEmailAddress', () => {
  test.each([
    ['jane@acme.io', 'jane@acme.io'],
    ['Jane.Doe@ACME.Co.UK', 'Jane.Doe@acme.co.uk'],
    ['  jane+tag@acme.io ', 'jane+tag@acme.io'],
    ["o'brien_1-x@mail.acme-corp.com", "o'brien_1-x@mail.acme-corp.com"],
    ['jane@bücher.de', 'jane@xn--bcher-kva.de'],
    ['jane@xn--bcher-kva.de', 'jane@xn--bcher-kva.de'],
    ['jane@gmail.com', 'jane@gmail.com'],
    ['jane@examples.com', 'jane@examples.com'],
    ['jane@example.co', 'jane@example.co'],
    ['jane@testing.io', 'jane@testing.io'],
  ])('%p is accepted as %p', (raw, email) => {
    expect(checkEmailAddress(raw)).toEqual({ ok: true, email })
  })

  test.each([
    ['', 'nothing'],
    ['jane', 'no @'],
    ['@acme.io', 'no local part'],
    ['jane@', 'no domain'],
    ['jane@@acme.io', 'two @'],
    ['jane@acme@io.com', 'two @ apart'],
    ['jane@localhost', 'a domain without a dot'],
    ['jane@acme.c', 'a one-letter top-level domain'],
    ['jane@acme.123', 'a numeric top-level domain'],
    ['jane@127.0.0.1', 'an IP address'],
    ['jane@[127.0.0.1]', 'a domain literal'],
    ['jane@-acme.io', 'a label starting with a hyphen'],
    ['jane@acme-.io', 'a label ending with a hyphen'],
    ['jane@acme..io', 'an empty label'],
    ['jane@.acme.io', 'a leading dot in the domain'],
    ['.jane@acme.io', 'a leading dot in the local part'],
    ['jane.@acme.io', 'a trailing dot in the local part'],
    ['ja..ne@acme.io', 'two dots in the local part'],
    ['"jane doe"@acme.io', 'a quoted local part'],
    ['jane doe@acme.io', 'a space'],
    ['jane@ac me.io', 'a space in the domain'],
    ['jane@b%c.io', 'a percent sign in the domain'],
    ['jäne@acme.io', 'a non-ASCII local part'],
    [`${'j'.repeat(65)}@acme.io`, 'a local part over 64 characters'],
    [`jane@${'a'.repeat(64)}.io`, 'a label over 63 characters'],
    [`jane@${'abcdefghi.'.repeat(25)}io`, 'an address over 254 characters'],
  ])('%p is invalid: %s', (raw) => {
    expect(checkEmailAddress(raw)).toEqual({ ok: false, reason: 'invalid' })
  })

  test.each([
    'jane@example.com',
    'jane@EXAMPLE.org',
    'jane@example.net',
    'jane@mail.example.com',
    'jane@acme.test',
    'jane@acme.example',
    'jane@acme.invalid',
    'jane@acme.localhost',
    'jane@printer.local',
  ])('%p is synthetic', (raw) => {
    expect(checkEmailAddress(raw)).toEqual({ ok: false, reason: 'synthetic' })
  })

  test.each(['jane@mailinator.com', 'jane@Mailinator.COM', 'jane@inbox.mailinator.com', 'jane@yopmail.com', 'jane@guerrillamail.com', 'jane@10minutemail.com'])(
    '%p is disposable',
    (raw) => {
      expect(checkEmailAddress(raw)).toEqual({ ok: false, reason: 'disposable' })
    },
  )

  test('the disposable list is embedded in a compiled executable, not read from node_modules at run time', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'parley-email-'))
    try {
      const entry = join(dir, 'entry.ts')
      const module = join(import.meta.dir, '../../server/support/email-address.ts')
      writeFileSync(entry, `import { checkEmailAddress } from ${JSON.stringify(module)}\nconsole.log(JSON.stringify(['x@mailinator.com', 'x@acme.io'].map(checkEmailAddress)))\n`)
      const built = await Bun.build({ entrypoints: [entry], compile: { outfile: join(dir, 'check') }, target: 'bun' })
      expect(built.success).toBe(true)
      // Run from an empty directory: no node_modules to fall back on.
      const run = Bun.spawnSync([join(dir, 'check')], { cwd: dir, env: { PATH: '/usr/bin:/bin' } })
      expect(JSON.parse(run.stdout.toString())).toEqual([
        { ok: false, reason: 'disposable' },
        { ok: true, email: 'x@acme.io' },
      ])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)
})
