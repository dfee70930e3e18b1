import { describe, expect, test } from 'bun:test'
import { logRing, ringedSink } from '../../server/operations/log-ring.ts'
import { memorySink } from '../../server/support/logger.ts'

describe('the log ring', () => {
  test('keeps lines oldest first, without their line breaks', () => {
    const ring = logRing(3)
    ring.write('a\n')
    ring.write('b\n')
    expect(ring.lines()).toEqual(['a', 'b'])
  })

  test('keeps only the last lines once full, still oldest first', () => {
    const ring = logRing(3)
    for (const line of ['1', '2', '3', '4', '5', '6', '7']) ring.write(`${line}\n`)
    expect(ring.lines()).toEqual(['5', '6', '7'])
  })

  test('holds 200 lines by default', () => {
    const ring = logRing()
    for (let i = 0; i < 450; i++) ring.write(`${i}\n`)
    const lines = ring.lines()
    expect(lines).toHaveLength(200)
    expect(lines[0]).toBe('250')
    expect(lines[199]).toBe('449')
  })

  test('a ringed sink writes every line to both the ring and the sink', () => {
    const ring = logRing(2)
    const sink = memorySink()
    const ringed = ringedSink(sink, ring)
    ringed.write('x\n')
    ringed.write('y\n')
    ringed.write('z\n')
    expect(sink.lines).toEqual(['x\n', 'y\n', 'z\n'])
    expect(ring.lines()).toEqual(['y', 'z'])
  })
})
