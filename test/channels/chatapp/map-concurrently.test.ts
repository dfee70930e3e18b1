import { describe, expect, test } from 'bun:test'
import { mapConcurrently } from '../../../server/channels/chatapp/map-concurrently.ts'

describe('mapConcurrently', () => {
  test('runs at most the bound at once, starts the next as one ends, and gives the results in the items\' order', async () => {
    let running = 0
    let peak = 0
    const waiting: (() => void)[] = []
    const done = mapConcurrently([1, 2, 3, 4, 5, 6, 7], 3, async (item) => {
      running++
      peak = Math.max(peak, running)
      await new Promise<void>((resolve) => waiting.push(resolve))
      running--
      return item * 10
    })
    await Bun.sleep(0)
    expect(waiting).toHaveLength(3)
    // Let them go last first, one at a time: the results keep the items' order anyway.
    while (waiting.length > 0) {
      waiting.pop()?.()
      await Bun.sleep(0)
    }
    expect(await done).toEqual([10, 20, 30, 40, 50, 60, 70])
    expect(peak).toBe(3)
  })

  test('no items is no work', async () => {
    expect(await mapConcurrently([], 4, async () => 1)).toEqual([])
  })
})
