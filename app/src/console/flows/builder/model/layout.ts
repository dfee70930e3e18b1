import type { Position } from './edits.ts'
import type { FlowModel } from './flow-model.ts'

export const NODE_WIDTH = 240
const COLUMN_GAP = 90
const ROW_GAP = 36

/** About how tall a node is drawn, for the automatic layout before it is measured. */
export const estimatedHeight = (node: FlowModel['nodes'][number]) => 58 + Math.min(node.says.length, 3) * 18 + (node.asks ? 18 : 0) + node.ports.length * 24

/**
 * Places for every state, left to right: a state's column is how many ways it is from the
 * start (the fewest), its place in the column follows the order its states were first
 * reached, so a question's answers sit in the order of its buttons. States the start does not
 * reach follow, from their own first state. Linear in states and ways: dagre's layered layout
 * took seconds on 200 states (its crossing reduction), and a flow reads well enough this way.
 */
export function autoLayout(model: FlowModel, sizes: Map<string, { height: number }> = new Map()): Record<string, Position> {
  const onward = new Map<string, string[]>(model.nodes.map((node) => [node.name, []]))
  for (const edge of model.edges) if (edge.from !== edge.to) onward.get(edge.from)?.push(edge.to)
  const column = new Map<string, number>()
  const order: string[] = []
  const reach = (root: string, offset: number) => {
    column.set(root, offset)
    order.push(root)
    for (let at = order.length - 1; at < order.length; at++) {
      const name = order[at] as string
      for (const next of onward.get(name) ?? []) {
        if (column.has(next)) continue
        column.set(next, (column.get(name) as number) + 1)
        order.push(next)
      }
    }
  }
  const names = model.nodes.map((node) => node.name)
  if (model.start !== null && onward.has(model.start)) reach(model.start, 0)
  for (const name of names) if (!column.has(name)) reach(name, 0)
  const heights = new Map(model.nodes.map((node) => [node.name, sizes.get(node.name)?.height ?? estimatedHeight(node)]))
  const filled = new Map<number, number>()
  const places: Record<string, Position> = {}
  for (const name of order) {
    const at = column.get(name) as number
    const y = filled.get(at) ?? 0
    places[name] = { x: at * (NODE_WIDTH + COLUMN_GAP), y }
    filled.set(at, y + (heights.get(name) as number) + ROW_GAP)
  }
  return places
}

/** The space kept around a new state's card. */
const FREE_GAP = 24

/**
 * Where a new card of `height` may go at or below `wanted` without covering a card already
 * drawn (`cards`: each one's place and height): the first spot down the column that is free.
 */
export function freeSpot(wanted: Position, height: number, cards: { at: Position; height: number }[]): Position {
  const spot = { ...wanted }
  const covers = (card: { at: Position; height: number }) =>
    spot.x < card.at.x + NODE_WIDTH + FREE_GAP && card.at.x < spot.x + NODE_WIDTH + FREE_GAP && spot.y < card.at.y + card.height + FREE_GAP && card.at.y < spot.y + height + FREE_GAP
  for (let tries = 0; tries <= cards.length; tries++) {
    const below = cards.filter(covers).map((card) => card.at.y + card.height + FREE_GAP)
    if (below.length === 0) return spot
    spot.y = Math.max(...below)
  }
  return spot
}
