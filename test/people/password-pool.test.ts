import { describe, expect, test } from 'bun:test'
import { passwordPool, PasswordPoolRefusal } from '../../server/people/password-pool.ts'

/** A check the test finishes when it likes, recording when it started. */
function checks() {
  const started: string[] = []
  const finish = new Map<string, () => void>()
  const check = (name: string) => () => {
    started.push(name)
    return new Promise<string>((resolve) => finish.set(name, () => resolve(name)))
  }
  const done = async (name: string) => {
    finish.get(name)?.()
    await Bun.sleep(0)
  }
  return { started, check, done }
}

describe('the password pool', () => {
  test('runs at most `concurrency` checks at once; a newcomer in good standing goes before a flood, whose addresses take turns', async () => {
    const pool = passwordPool({ concurrency: 1 })
    const { started, check, done } = checks()
    const answers: Promise<string>[] = []
    // A flood from three addresses: each one's first attempt looked fine, the rest wait their turn.
    for (const address of ['a', 'b', 'c']) for (let k = 1; k <= 3; k++) answers.push(pool.run(address, k === 1, check(`${address}${k}`)))
    expect(started).toEqual(['a1'])
    expect(pool.load()).toEqual({ running: 1, waiting: 8 })
    // The real person arrives from a new address.
    answers.push(pool.run('newcomer', true, check('person')))
    await done('a1')
    // Newest first in the first lane: the person, then the flood's first attempts.
    expect(started).toEqual(['a1', 'person'])
    for (const name of ['person', 'c1']) await done(name)
    expect(started).toEqual(['a1', 'person', 'c1', 'b1'])
    // Then the second lane, one address at a time in turn.
    for (let k = 0; k < 6; k++) await done(started.at(-1) as string)
    expect(started).toEqual(['a1', 'person', 'c1', 'b1', 'a2', 'b2', 'c2', 'a3', 'b3', 'c3'])
    await done('c3')
    expect(await Promise.all(answers)).toHaveLength(10)
    expect(pool.load()).toEqual({ running: 0, waiting: 0 })
  })

  test('an address that is not in good standing waits in the second lane even for its first attempt', async () => {
    const pool = passwordPool({ concurrency: 1 })
    const { started, check, done } = checks()
    const answers = [pool.run('x', true, check('x1')), pool.run('bad', false, check('bad1')), pool.run('y', true, check('y1'))]
    await done('x1')
    expect(started).toEqual(['x1', 'y1'])
    await done('y1')
    await done('bad1')
    expect(started).toEqual(['x1', 'y1', 'bad1'])
    await Promise.all(answers)
  })

  test('bounded: a few waiting per address, a limit per lane, a longest wait; refused checks never run', async () => {
    let clock = 0
    const pool = passwordPool({ concurrency: 1, waitingPerAddress: 2, waitingInAll: 3, maxWaitMs: 1000, now: () => clock })
    const { started, check, done } = checks()
    const kept = [pool.run('a', false, check('a1')), pool.run('a', false, check('a2')), pool.run('a', false, check('a3'))]
    await expect(pool.run('a', false, check('a4'))).rejects.toEqual(new PasswordPoolRefusal('address'))
    const b1 = pool.run('b', false, check('b1'))
    await expect(pool.run('c', false, check('c1'))).rejects.toEqual(new PasswordPoolRefusal('full'))
    clock += 1001
    const late = [kept[1], kept[2], b1].map((answer) => (answer as Promise<string>).catch((error) => error))
    await done('a1')
    expect(await Promise.all(late)).toEqual([new PasswordPoolRefusal('late'), new PasswordPoolRefusal('late'), new PasswordPoolRefusal('late')])
    expect(started).toEqual(['a1'])
    expect(pool.load()).toEqual({ running: 0, waiting: 0 })
    expect(await kept[0]).toBe('a1')
  })

  test('a check that fails frees its slot and answers its error', async () => {
    const pool = passwordPool({ concurrency: 1 })
    await expect(pool.run('a', true, () => Promise.reject(new Error('broken hash')))).rejects.toThrow('broken hash')
    expect(await pool.run('a', true, async () => 'next')).toBe('next')
  })
})
