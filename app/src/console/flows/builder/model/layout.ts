import type { Position } from './edits.ts'
import type { FlowModel } from './flow-model.ts'

export const NODE_WIDTH = 240

/** About how tall a node is drawn, for the automatic layout before it is measured. */
export const estimatedHeight = (node: FlowModel['nodes'][number]) => 58 + Math.min(node.says.length, 3) * 18 + (node.asks ? 18 : 0) + node.ports.length * 24

/**
 * Places for every state, left to right along the ways between them, by dagre (loaded with
 * the first layout, not before). The builder uses it for states the definition does not
 * place yet, and for "Tidy up".
 */
export async function autoLayout(model: FlowModel, sizes: Map<string, { width: number; height: number }> = new Map()): Promise<Record<string, Position>> {
  const { default: dagre } = await import('@dagrejs/dagre')
  const graph = new dagre.graphlib.Graph({ multigraph: true })
  graph.setGraph({ rankdir: 'LR', nodesep: 36, ranksep: 90, marginx: 20, marginy: 20 })
  graph.setDefaultEdgeLabel(() => ({}))
  for (const node of model.nodes) graph.setNode(node.name, { width: sizes.get(node.name)?.width ?? NODE_WIDTH, height: sizes.get(node.name)?.height ?? estimatedHeight(node) })
  for (const edge of model.edges) if (edge.from !== edge.to) graph.setEdge(edge.from, edge.to, {}, edge.id)
  dagre.layout(graph)
  const places: Record<string, Position> = {}
  for (const node of model.nodes) {
    const laid = graph.node(node.name)
    places[node.name] = { x: Math.round(laid.x - laid.width / 2), y: Math.round(laid.y - laid.height / 2) }
  }
  return places
}
