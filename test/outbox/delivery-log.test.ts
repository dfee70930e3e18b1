import { afterEach, beforeEach, describe, expect, test } from 'bun:test'
import { deliveryLog, deliveryLogParts } from '../../server/outbox/delivery-log.ts'
import type { StoredDelivery } from '../../server/outbox/outbox-store.ts'
import { type OutboxDb, outboxDb } from './support/outbox-db.ts'

let env: OutboxDb
beforeEach(() => {
  env = outboxDb()
})
afterEach(() => env.close())

const attempt = { at: '2026-01-01T00:00:00.000Z', url: 'https://receiver.example/hook', statusCode: 500, error: 'HTTP 500' }

describe('the delivery log shared by the channels', () => {
  test("lists one integration's deliveries newest first, by status and conversation, a page at a time", () => {
    const [first, second] = env.enqueue('https://receiver.example/hook', 'conv-a', 2)
    const [third] = env.enqueue('https://receiver.example/hook', 'conv-b', 1)
    env.enqueue('https://receiver.example/hook', 'conv-a', 1, Date.now(), 'other-integration')
    env.store.fail(env.row(first!)!.seq, attempt)
    const pages: string[][] = []
    const log = deliveryLog(env.store, (rows: StoredDelivery[], integrationId) => {
      pages.push(rows.map((row) => `${integrationId}:${row.id}`))
      return rows.map((row) => row.id)
    })
    const page = { limit: 50, offset: 0 }

    expect(log('int', {}, page)).toEqual({ items: [third!, second!, first!], total: 3 })
    expect(log('int', { conversation_id: 'conv-a' }, page)).toEqual({ items: [second!, first!], total: 2 })
    expect(log('int', { status: 'failed' }, page)).toEqual({ items: [first!], total: 1 })
    expect(log('int', { status: 'pending', conversation_id: 'conv-b' }, page)).toEqual({ items: [third!], total: 1 })
    expect(log('int', { status: 'failed', conversation_id: 'conv-b' }, page)).toEqual({ items: [], total: 0 })
    expect(log('int', {}, { limit: 1, offset: 1 })).toEqual({ items: [second!], total: 3 })
    // The view is called once a page, with the page's rows: one query for what it adds.
    expect(pages.at(-1)).toEqual([`int:${second}`])
  })

  test('shows when a pending delivery is tried next, and no next attempt once it has finished', () => {
    const [pending, failed] = env.enqueue('https://receiver.example/hook', 'conv-a', 1).concat(env.enqueue('https://receiver.example/hook', 'conv-b', 1))
    env.store.fail(env.row(failed!)!.seq, attempt)
    const pendingParts = deliveryLogParts(env.row(pending!)!)
    const failedParts = deliveryLogParts(env.row(failed!)!)
    expect(pendingParts.head).toEqual({ id: pending!, type: 'message.created', conversation_id: 'conv-a' })
    expect(pendingParts.attempts.next_attempt_at).toBe(env.row(pending!)!.next_attempt_at as string)
    expect(failedParts.attempts).toEqual({ attempts: 0, next_attempt_at: null, last_attempt_at: null, last_status_code: 500, last_error: 'HTTP 500' })
    expect(failedParts.end).toMatchObject({ finished_at: attempt.at, payload: { key: 'conv-b', n: 0 } })
  })
})
