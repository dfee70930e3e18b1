import { expect, test } from 'bun:test'
import { systemClock } from '../../server/support/clock.ts'

test("the system clock is now, in ISO 8601 UTC with milliseconds, and moves on with the millisecond", async () => {
  const before = Date.now()
  const at = systemClock()
  expect(at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/)
  expect(Date.parse(at)).toBeGreaterThanOrEqual(before)
  expect(Date.parse(at)).toBeLessThanOrEqual(Date.now())
  await Bun.sleep(3)
  expect(Date.parse(systemClock())).toBeGreaterThan(Date.parse(at))
})
