import { describe, expect, test } from 'bun:test'
import { freeSpot, NODE_WIDTH } from '../../../app/src/console/flows/builder/model/layout.ts'

describe("a new state's card goes where no card is", () => {
  test.each([
    ['an empty canvas: where wanted', { x: 10, y: 20 }, [], { x: 10, y: 20 }],
    ['a card far to the left: where wanted', { x: 600, y: 0 }, [{ at: { x: 0, y: 0 }, height: 300 }], { x: 600, y: 0 }],
    ['a card in the way: just below it', { x: 40, y: 40 }, [{ at: { x: 0, y: 0 }, height: 100 }], { x: 40, y: 124 }],
    [
      'a column of cards: below the last one it would cover',
      { x: 0, y: 0 },
      [
        { at: { x: 0, y: 0 }, height: 100 },
        { at: { x: 0, y: 130 }, height: 100 },
        { at: { x: 0, y: 260 }, height: 80 },
      ],
      { x: 0, y: 364 },
    ],
    ['a gap big enough between two cards: in the gap', { x: 0, y: 0 }, [{ at: { x: 0, y: 0 }, height: 60 }, { at: { x: 0, y: 400 }, height: 60 }], { x: 0, y: 84 }],
    ['a card overlapping by a few pixels sideways still counts', { x: NODE_WIDTH - 10, y: 0 }, [{ at: { x: 0, y: 0 }, height: 60 }], { x: NODE_WIDTH - 10, y: 84 }],
  ] as const)('%s', (_, wanted, cards, expected) => {
    expect(freeSpot(wanted, 120, cards.map((card) => ({ at: { ...card.at }, height: card.height })))).toEqual(expected)
  })
})
