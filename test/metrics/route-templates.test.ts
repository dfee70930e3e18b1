import { expect, test } from 'bun:test'
import { routeTemplates } from '../../server/metrics/route-templates.ts'

const routes = [
  { method: 'GET', path: '/' },
  { method: 'GET', path: '/healthz' },
  { method: 'GET', path: '/api/dev/v1/chatbots/' },
  { method: 'GET', path: '/api/dev/v1/chatbots/:chatbot_id' },
  { method: 'GET', path: '/api/dev/v1/chatbots/:chatbot_id/integrations/web/' },
  { method: 'GET', path: '/api/dev/v1/chatbots/:chatbot_id/integrations/:integration_id' },
  { method: 'GET', path: '/app' },
  { method: 'GET', path: '/app/*' },
  { method: 'GET', path: '/app/assets/:file' },
]

test('a path is counted under the route that takes it; anything else is "unmatched"', () => {
  const routeOf = routeTemplates(() => routes)
  const cases: [string, string][] = [
    ['/', '/'],
    ['/healthz', '/healthz'],
    ['/healthz/', '/healthz'],
    ['/api/dev/v1/chatbots', '/api/dev/v1/chatbots'],
    ['/api/dev/v1/chatbots/', '/api/dev/v1/chatbots'],
    ['/api/dev/v1/chatbots/01ARZ3NDEKTSV4RRFFQ69G5FAV', '/api/dev/v1/chatbots/:chatbot_id'],
    ['/api/dev/v1/chatbots/01ARZ/integrations/web', '/api/dev/v1/chatbots/:chatbot_id/integrations/web'],
    ['/api/dev/v1/chatbots/01ARZ/integrations/01B', '/api/dev/v1/chatbots/:chatbot_id/integrations/:integration_id'],
    ['/app', '/app'],
    ['/app/c/01ARZ', '/app/*'],
    ['/app/assets/app-1.js', '/app/assets/:file'],
    ['/app/assets/chunks/x.js', '/app/*'],
    ['/nowhere', 'unmatched'],
    ['/api/dev/v1/chatbots/01ARZ/flows', 'unmatched'],
    ['/api/dev/v1/chatbots//integrations/web', 'unmatched'],
    [`/${'a/'.repeat(5000)}`, 'unmatched'],
  ]
  for (const [path, route] of cases) expect([path.slice(0, 60), routeOf(path)]).toEqual([path.slice(0, 60), route])
})
