/** A directed graph over screens, with the few algorithms the routing rules need, all linear. */

export class ScreenGraph {
  /** For each node, its targets and the JSON Pointer of the first edge to each. */
  readonly out: Map<number, string>[]

  constructor(readonly size: number) {
    this.out = Array.from({ length: size }, () => new Map<number, string>())
  }

  addEdge(from: number, to: number, path: string): void {
    const targets = this.out[from] as Map<number, string>
    if (!targets.has(to)) targets.set(to, path)
  }

  inDegrees(): number[] {
    const degrees = new Array<number>(this.size).fill(0)
    for (const targets of this.out) for (const to of targets.keys()) degrees[to] = (degrees[to] as number) + 1
    return degrees
  }

  /** Component number per node, ignoring edge direction. */
  weakComponents(): number[] {
    const neighbours = Array.from({ length: this.size }, () => [] as number[])
    this.out.forEach((targets, from) => {
      for (const to of targets.keys()) {
        ;(neighbours[from] as number[]).push(to)
        ;(neighbours[to] as number[]).push(from)
      }
    })
    const component = new Array<number>(this.size).fill(-1)
    let next = 0
    for (let start = 0; start < this.size; start++) {
      if (component[start] !== -1) continue
      const stack = [start]
      component[start] = next
      while (stack.length > 0) {
        const node = stack.pop() as number
        for (const other of neighbours[node] as number[]) {
          if (component[other] === -1) {
            component[other] = next
            stack.push(other)
          }
        }
      }
      next++
    }
    return component
  }

  /** Strongly connected components with more than one node (the loops), iteratively (Tarjan). */
  loops(): number[][] {
    const index = new Array<number>(this.size).fill(-1)
    const low = new Array<number>(this.size).fill(0)
    const onStack = new Array<boolean>(this.size).fill(false)
    const stack: number[] = []
    const found: number[][] = []
    let counter = 0
    const targets = this.out.map((map) => [...map.keys()])
    for (let root = 0; root < this.size; root++) {
      if (index[root] !== -1) continue
      const work: [number, number][] = [[root, 0]]
      while (work.length > 0) {
        const frame = work[work.length - 1] as [number, number]
        const [node, position] = frame
        if (position === 0) {
          index[node] = low[node] = counter++
          stack.push(node)
          onStack[node] = true
        }
        const edges = targets[node] as number[]
        if (position < edges.length) {
          frame[1] = position + 1
          const next = edges[position] as number
          if (index[next] === -1) work.push([next, 0])
          else if (onStack[next]) low[node] = Math.min(low[node] as number, index[next] as number)
          continue
        }
        work.pop()
        const parent = work[work.length - 1]
        if (parent) low[parent[0]] = Math.min(low[parent[0]] as number, low[node] as number)
        if (low[node] === index[node]) {
          const members: number[] = []
          let member: number
          do {
            member = stack.pop() as number
            onStack[member] = false
            members.push(member)
          } while (member !== node)
          if (members.length > 1) found.push(members.sort((a, b) => a - b))
        }
      }
    }
    return found
  }
}
