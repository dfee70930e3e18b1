/**
 * The routing model (flows with an endpoint) or, without one, the graph of `navigate` actions:
 * known screens only, all connected, an entry screen with no way in, no loops or back routes,
 * at most 10 branches per screen, no screen routing to itself, every navigate edge listed.
 * Routes that end on a non-terminal screen only warn (the provider's own templates do it).
 */
import { navigateTarget } from './actions.ts'
import { MetaCode } from './codes.ts'
import type { MetaContext, ScreenFacts } from './context.ts'
import { ScreenGraph } from './graph.ts'
import { type JsonObject, hasOwn, isObject, jsonTypeOf, listSome, token } from './json.ts'

export const MAX_BRANCHES = 10

interface GraphView {
  readonly graph: ScreenGraph
  readonly nodes: ScreenFacts[]
  /** Where a finding about a whole screen is reported. */
  nodePath(node: number): string
  readonly rootPath: string
  /** "routing model" or "navigate actions", for messages. */
  readonly source: string
}

export function checkRouting(ctx: MetaContext, document: JsonObject): void {
  const model = document.routing_model
  if (model === undefined) {
    if (ctx.hasDataApiVersion) {
      ctx.issues.error(
        '/routing_model',
        MetaCode.MISSING_REQUIRED_PROPERTY,
        'A flow with "data_api_version" needs a "routing_model" listing, for each screen, the screens it may lead to.',
      )
      return
    }
    checkGraph(ctx, navigateGraph(ctx))
    return
  }
  if (!isObject(model)) return
  const view = routingModelGraph(ctx, model)
  checkGraph(ctx, view)
  checkNavigateEdgesListed(ctx, model)
}

function nodesOf(ctx: MetaContext): { nodes: ScreenFacts[]; number: Map<ScreenFacts, number> } {
  const nodes = [...ctx.screensById.values()]
  return { nodes, number: new Map(nodes.map((screen, i) => [screen, i])) }
}

function routingModelGraph(ctx: MetaContext, model: JsonObject): GraphView {
  const { nodes, number } = nodesOf(ctx)
  const graph = new ScreenGraph(nodes.length)
  for (const key in model) {
    const keyPath = `/routing_model/${token(key)}`
    const from = ctx.screensById.get(key)
    if (!from) {
      ctx.issues.error(keyPath, MetaCode.INVALID_ROUTING_MODEL, `The routing model lists '${key}', which is not a screen id. Remove it or fix the name.`)
    }
    const targets = model[key]
    if (!Array.isArray(targets)) {
      ctx.issues.error(keyPath, MetaCode.INVALID_PROPERTY_TYPE, `The routes of '${key}' must be an array of screen ids, not ${jsonTypeOf(targets)}.`)
      continue
    }
    targets.forEach((target, i) => {
      const targetPath = `${keyPath}/${i}`
      if (typeof target !== 'string') {
        ctx.issues.error(targetPath, MetaCode.INVALID_PROPERTY_TYPE, `A route must be a screen id (a string), not ${jsonTypeOf(target)}.`)
        return
      }
      const to = ctx.screensById.get(target)
      if (!to) {
        ctx.issues.error(targetPath, MetaCode.INVALID_ROUTING_MODEL, `'${key}' routes to '${target}', which is not a screen id. Remove the route or fix the name.`)
      } else if (to === from) {
        ctx.issues.error(targetPath, MetaCode.INVALID_ROUTING_MODEL, `'${key}' routes to itself. A screen cannot be its own next screen; remove this route.`)
      } else if (from) {
        graph.addEdge(number.get(from) as number, number.get(to) as number, targetPath)
      }
    })
  }
  for (const screen of nodes) {
    if (!hasOwn(model, screen.id as string)) {
      // The provider's own templates leave single-screen and leaf screens out; so only a warning.
      ctx.issues.warning(
        `/routing_model/${token(screen.id as string)}`,
        MetaCode.INVALID_ROUTING_MODEL,
        `Screen '${screen.id}' is not a key of the routing model. Add "${screen.id}": [] (or its next screens).`,
      )
    }
  }
  return {
    graph,
    nodes,
    nodePath: (node) => {
      const id = (nodes[node] as ScreenFacts).id as string
      return hasOwn(model, id) ? `/routing_model/${token(id)}` : '/routing_model'
    },
    rootPath: '/routing_model',
    source: 'routing model',
  }
}

function navigateGraph(ctx: MetaContext): GraphView {
  const { nodes, number } = nodesOf(ctx)
  const graph = new ScreenGraph(nodes.length)
  for (const screen of nodes) {
    for (const action of screen.actions) {
      if (action.name !== 'navigate') continue
      const target = navigateTarget(ctx, action)
      if (target) graph.addEdge(number.get(screen) as number, number.get(target) as number, `${action.path}/next/name`)
    }
  }
  return { graph, nodes, nodePath: (node) => (nodes[node] as ScreenFacts).path, rootPath: '/screens', source: 'navigate actions' }
}

function checkGraph(ctx: MetaContext, view: GraphView): void {
  const { graph, nodes } = view
  if (nodes.length === 0) return
  const idOf = (node: number) => (nodes[node] as ScreenFacts).id as string

  graph.out.forEach((targets, node) => {
    if (targets.size > MAX_BRANCHES) {
      ctx.issues.error(
        view.nodePath(node),
        MetaCode.INVALID_ROUTING_MODEL,
        `Screen '${idOf(node)}' leads to ${targets.size} screens in the ${view.source}; at most ${MAX_BRANCHES} are allowed. Split the choice over more screens.`,
      )
    }
  })

  const inDegrees = graph.inDegrees()
  const entry = inDegrees.indexOf(0)
  if (entry < 0) {
    ctx.issues.error(
      view.rootPath,
      MetaCode.INVALID_ROUTING_MODEL,
      `Every screen can be reached from another in the ${view.source}, so there is no entry screen. One screen must have no way in.`,
    )
  }

  const components = graph.weakComponents()
  const main = components[entry < 0 ? 0 : entry]
  components.forEach((component, node) => {
    if (component !== main) {
      ctx.issues.error(
        view.nodePath(node),
        MetaCode.INVALID_ROUTING_MODEL,
        `Screen '${idOf(node)}' is not connected to the rest of the flow through the ${view.source}. Link it from another screen or remove it.`,
      )
    }
  })

  graph.out.forEach((targets, from) => {
    for (const [to, path] of targets) {
      if (from > to && graph.out[to]?.has(from)) {
        ctx.issues.error(
          path,
          MetaCode.INVALID_ROUTING_MODEL,
          `'${idOf(from)}' → '${idOf(to)}' goes back along '${idOf(to)}' → '${idOf(from)}'. Only forward routes are allowed; going back is the back button's job.`,
        )
      }
    }
  })

  for (const loop of graph.loops()) {
    if (loop.length === 2) continue // already reported as a back route
    ctx.issues.error(
      view.nodePath(loop[0] as number),
      MetaCode.INVALID_ROUTING_MODEL,
      `The ${view.source} loops through ${listSome(loop.map(idOf), loop.length)}. Routes must only lead forward; break the loop.`,
    )
  }

  graph.out.forEach((targets, node) => {
    const screen = nodes[node] as ScreenFacts
    if (targets.size === 0 && !screen.terminal) {
      ctx.issues.warning(
        screen.path,
        MetaCode.ROUTE_ENDS_AT_NON_TERMINAL_SCREEN,
        `A route ends at screen '${screen.id}', which is not terminal, so the flow cannot be finished from there. Make it terminal or lead on from it.`,
      )
    }
  })
}

function checkNavigateEdgesListed(ctx: MetaContext, model: JsonObject): void {
  for (const screen of ctx.screensById.values()) {
    const routes = hasOwn(model, screen.id as string) ? model[screen.id as string] : undefined
    let listed: Set<unknown> | null = null
    for (const action of screen.actions) {
      if (action.name !== 'navigate') continue
      const target = navigateTarget(ctx, action)
      listed ??= new Set(Array.isArray(routes) ? routes : [])
      if (target && !listed.has(target.id)) {
        ctx.issues.error(
          `${action.path}/next/name`,
          MetaCode.INVALID_ROUTING_MODEL,
          `'${screen.id}' navigates to '${target.id}', but the routing model does not list that route. Add "${target.id}" to routing_model.${screen.id}.`,
        )
      }
    }
  }
}
