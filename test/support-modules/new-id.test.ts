import { describe, expect, test } from 'bun:test'
import { decodeTime } from 'ulid'
import { newId } from '../../server/support/new-id.ts'

const ULID = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/

describe('newId', () => {
  test('makes ULIDs whose time is the moment they were made', () => {
    const before = Date.now()
    const id = newId()
    const after = Date.now()
    expect(id).toMatch(ULID)
    expect(decodeTime(id)).toBeGreaterThanOrEqual(before)
    expect(decodeTime(id)).toBeLessThanOrEqual(after)
  })

  test('ids made in a burst (many in one millisecond) are distinct, valid and strictly increasing', () => {
    const ids = Array.from({ length: 50_000 }, () => newId())
    expect(new Set(ids).size).toBe(ids.length)
    for (let i = 1; i < ids.length; i++) {
      expect(ids[i] as string).toMatch(ULID)
      if (!((ids[i] as string) > (ids[i - 1] as string))) throw new Error(`${ids[i]} does not sort after ${ids[i - 1]}`)
    }
    const perMs = new Map<number, number>()
    for (const id of ids) perMs.set(decodeTime(id), (perMs.get(decodeTime(id)) ?? 0) + 1)
    expect(Math.max(...perMs.values())).toBeGreaterThan(1)
  })

  test('the next id in the same millisecond keeps the time and adds one to the 80-bit random part', () => {
    const ids: string[] = []
    const ms = Date.now()
    while (Date.now() === ms) ids.push(newId())
    for (let i = 1; i < ids.length; i++) {
      const [previous, current] = [ids[i - 1] as string, ids[i] as string]
      if (decodeTime(current) !== decodeTime(previous)) continue
      expect(current.slice(0, 10)).toBe(previous.slice(0, 10))
      expect(toBigInt(current.slice(10)) - toBigInt(previous.slice(10))).toBe(1n)
    }
  })

  test('two processes started at once do not share ids (the random part is not predictable)', async () => {
    const script = "import { newId } from './server/support/new-id.ts'; console.log(newId())"
    const run = () => Bun.spawn([process.execPath, '-e', script], { cwd: `${import.meta.dir}/../..`, stdout: 'pipe' })
    const [a, b] = await Promise.all([run(), run()].map((p) => new Response(p.stdout).text()))
    expect(a?.trim()).toMatch(ULID)
    expect(a?.trim().slice(10)).not.toBe(b?.trim().slice(10))
  })
})

function toBigInt(base32: string): bigint {
  const digits = '0123456789ABCDEFGHJKMNPQRSTVWXYZ'
  return [...base32].reduce((value, char) => value * 32n + BigInt(digits.indexOf(char)), 0n)
}
