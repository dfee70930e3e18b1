interface RouteLike {
  method: string
  path: string
}

/**
 * Answers "which methods does this path take?" from the registered routes, so that a known
 * path with the wrong method gets 405 with Allow instead of 404.
 */
export function routeMethods(routes: () => readonly RouteLike[]): (path: string) => string[] {
  let table: { pattern: RegExp; method: string }[] | undefined
  return (path) => {
    table ??= routes()
      .filter((route) => route.method !== 'ALL' && route.method !== 'WS')
      .map((route) => ({ pattern: toPattern(route.path), method: route.method }))
    const methods = new Set(table.filter((entry) => entry.pattern.test(path)).map((entry) => entry.method))
    return [...methods].sort()
  }
}

function toPattern(path: string): RegExp {
  const source = path
    .replace(/(.)\/+$/, '$1')
    .split('/')
    .map((segment) => {
      if (segment === '*') return '.*'
      if (segment.startsWith(':')) return '[^/]+'
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
    })
    .join('/')
  return new RegExp(`^${source}/?$`)
}
