import { createResource, For, Show } from 'solid-js'
import { flowGraph } from './flow-graph.ts'

interface Laid {
  width: number
  height: number
  nodes: { name: string; x: number; y: number; width: number; height: number; classes: string }[]
  edges: { points: { x: number; y: number }[]; label: string }[]
}

const NODE_HEIGHT = 34

/** The states and the ways between them, laid out by dagre (loaded with the diagram, not before); a click names a state. */
export function FlowDiagram(props: { definition: unknown; onPick: (state: string) => void }) {
  const [laid] = createResource(
    () => props.definition,
    async (definition): Promise<Laid> => {
      const { default: dagre } = await import('@dagrejs/dagre')
      const graph = flowGraph(definition)
      const layout = new dagre.graphlib.Graph({ multigraph: true })
      layout.setGraph({ rankdir: 'TB', nodesep: 24, ranksep: 40, marginx: 8, marginy: 8 })
      layout.setDefaultEdgeLabel(() => ({}))
      for (const name of graph.states) layout.setNode(name, { width: Math.max(70, name.length * 8 + 24), height: NODE_HEIGHT })
      graph.edges.forEach((edge, index) => {
        if (graph.states.includes(edge.to)) layout.setEdge(edge.from, edge.to, { label: edge.label }, String(index))
      })
      dagre.layout(layout)
      const nodes = graph.states.map((name) => {
        const node = layout.node(name)
        const classes = ['node', name === graph.start ? 'start' : '', graph.unreachable.has(name) ? 'unreachable' : '', graph.deadEnds.has(name) ? 'dead-end' : '', graph.ends.has(name) ? 'end' : ''].filter(Boolean).join(' ')
        return { name, x: node.x - node.width / 2, y: node.y - node.height / 2, width: node.width, height: node.height, classes }
      })
      const edges = layout.edges().map((id) => ({ points: layout.edge(id).points ?? [], label: String(layout.edge(id).label ?? '') }))
      const size = layout.graph()
      return { width: (size.width ?? 100) + 16, height: (size.height ?? 60) + 16, nodes, edges }
    },
  )
  return (
    <Show when={laid()} fallback={<p class="loading">Drawing…</p>}>
      {(shown) => (
        <div class="diagram">
          <svg width={shown().width} height={shown().height} viewBox={`0 0 ${shown().width} ${shown().height}`} role="img" aria-label="The flow's states and transitions">
            <For each={shown().edges}>{(edge) => <polyline class="edge" points={edge.points.map((p) => `${p.x},${p.y}`).join(' ')} />}</For>
            <For each={shown().nodes}>
              {(node) => (
                <g class={node.classes} data-state={node.name} transform={`translate(${node.x},${node.y})`} onClick={() => props.onPick(node.name)}>
                  <rect width={node.width} height={node.height} rx="6" />
                  <text x={node.width / 2} y={node.height / 2 + 4} text-anchor="middle">
                    {node.name}
                  </text>
                  <title>{node.classes.includes('unreachable') ? `${node.name}: never reached from the start` : node.classes.includes('dead-end') ? `${node.name}: no way out` : node.name}</title>
                </g>
              )}
            </For>
          </svg>
          <p class="muted legend">Thick border: start · dashed: unreachable · red: dead end · green: end</p>
        </div>
      )}
    </Show>
  )
}
