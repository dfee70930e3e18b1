import { describe, expect, test } from 'bun:test'
import { Value } from '@sinclair/typebox/value'
import { t } from 'elysia'
import { describeSchemaErrors } from '../../server/http/describe-schema-errors.ts'

const Schema = t.Object(
  {
    name: t.String({ minLength: 1, maxLength: 5 }),
    count: t.Optional(t.Integer({ minimum: 1, maximum: 9 })),
    colour: t.Optional(t.Union([t.String({ pattern: '^#[0-9a-f]{6}$', error: 'must be a hex colour' }), t.Null()])),
    mode: t.Optional(t.Union([t.Literal('a'), t.Literal('b')])),
    tags: t.Optional(t.Union([t.Array(t.String({ minLength: 1 }), { maxItems: 2 }), t.Null()])),
  },
  { additionalProperties: false },
)

const describeErrors = (value: unknown) => describeSchemaErrors(Value.Errors(Schema, value))

describe('schema errors in plain words, one per field', () => {
  test.each([
    [{}, [{ path: '/name', message: 'is required' }]],
    [{ name: '' }, [{ path: '/name', message: 'must not be empty' }]],
    [{ name: 'toolong' }, [{ path: '/name', message: 'must be at most 5 characters' }]],
    [{ name: 1 }, [{ path: '/name', message: 'must be a string' }]],
    [{ name: 'a', count: 1.5 }, [{ path: '/count', message: 'must be an integer' }]],
    [{ name: 'a', count: 10 }, [{ path: '/count', message: 'must be at most 9' }]],
    [{ name: 'a', count: 0 }, [{ path: '/count', message: 'must be at least 1' }]],
    [{ name: 'a', colour: 'red' }, [{ path: '/colour', message: 'must be a hex colour, or null' }]],
    [{ name: 'a', mode: 'c' }, [{ path: '/mode', message: 'must be one of: "a", "b"' }]],
    [{ name: 'a', tags: ['x', ''] }, [{ path: '/tags/1', message: 'must not be empty' }]],
    [{ name: 'a', tags: ['x', 'y', 'z'] }, [{ path: '/tags', message: 'must have at most 2 items, or null' }]],
    [{ name: 'a', extra: true }, [{ path: '/extra', message: 'is not an allowed field' }]],
    [[], [{ path: '', message: 'the body must be a JSON object' }]],
  ])('%j', (value, expected) => {
    expect(describeErrors(value)).toEqual(expected)
  })

  test('valid values give no errors', () => {
    expect(describeErrors({ name: 'ok', count: 3, colour: null, mode: 'b', tags: ['x'] })).toEqual([])
  })
})
