interface RouteLike {
  method: string
  path: string
}

interface Node {
  fixed: Map<string, Node>
  param: Node | null
  /** A `*` route ending here: it takes the rest of the path. */
  rest: string | null
  template: string | null
}

/** Deeper paths are no route of ours: not walked. */
const MOST_SEGMENTS = 32

const node = (): Node => ({ fixed: new Map(), param: null, rest: null, template: null })

/**
 * The route a path was answered by, as registered (`/api/dev/v1/chatbots/:chatbot_id`), so
 * that request metrics have one series per route however many ids are asked for; any path no
 * route takes is "unmatched". A tree of the routes' segments, built at first use from the
 * registered routes: a walk costs one Map lookup per segment.
 */
export function routeTemplates(routes: () => readonly RouteLike[]): (path: string) => string {
  let root: Node | null = null

  function build(): Node {
    const top = node()
    for (const route of routes()) {
      const template = route.path.length > 1 ? route.path.replace(/\/+$/, '') : route.path
      let at = top
      for (const segment of template.split('/').slice(1)) {
        if (segment === '*') {
          at.rest = template
          at = node()
          break
        }
        if (segment.startsWith(':')) at = at.param ??= node()
        else {
          let next = at.fixed.get(segment)
          if (!next) at.fixed.set(segment, (next = node()))
          at = next
        }
      }
      if (!template.endsWith('*')) at.template ??= template
    }
    return top
  }

  /** The template for the rest of `path` from `start` (just after a slash), or null; `depth` bounds the walk. */
  function match(at: Node, path: string, start: number, depth: number): string | null {
    if (start > path.length) return at.template ?? at.rest
    if (depth > MOST_SEGMENTS) return null
    const slash = path.indexOf('/', start)
    const end = slash < 0 ? path.length : slash
    const segment = path.slice(start, end)
    const fixed = at.fixed.get(segment)
    const found = (fixed && match(fixed, path, end + 1, depth + 1)) || (at.param && segment !== '' && match(at.param, path, end + 1, depth + 1))
    return found || at.rest
  }

  return (path) => {
    root ??= build()
    const trimmed = path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path
    return match(root, trimmed, 1, 0) ?? 'unmatched'
  }
}
