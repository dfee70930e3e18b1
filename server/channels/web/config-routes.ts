import { Elysia, t } from 'elysia'
import { ApiError } from '../../http/api-error.ts'
import { errorResponses } from '../../http/error-responses.ts'
import { perAddressLimit } from '../../http/per-address-limit.ts'
import { WidgetBootConfig } from '../../protocol/widget-protocol.ts'
import { admitWidget, REFUSAL_STATUSES } from './admit-widget.ts'
import type { FindWebIntegration } from './web-directory.ts'
import { bootConfigOf } from './boot-config.ts'

/**
 * GET /widget/v1/config/{widget_key}: what the widget needs before it connects (its look,
 * its greeting, where it may show). Public, like the widget key itself; the same Origin rule
 * as the socket applies, and allowed pages may read it cross-origin.
 */
export function widgetConfigRoutes(findIntegration: FindWebIntegration, perMinutePerAddress: number) {
  return new Elysia().use(perAddressLimit(perMinutePerAddress)).get(
    '/widget/v1/config/:widget_key',
    async ({ params, request, set }) => {
      const origin = request.headers.get('origin')
      // Refusals are readable cross-origin too, so the widget can say why it stays hidden.
      const cors = { 'access-control-allow-origin': origin ?? '*', vary: 'Origin' }
      const admission = await admitWidget(findIntegration, params.widget_key, origin)
      if (!admission.admitted) {
        const { status, code } = REFUSAL_STATUSES[admission.refusal]
        throw new ApiError(status, code, admission.reason, undefined, cors)
      }
      const { integration } = admission
      set.headers.vary = 'Origin'
      // A minute of caching spares repeat page views a round trip before the bubble shows;
      // the socket checks the key and the origin afresh on every connection.
      set.headers['cache-control'] = 'public, max-age=60'
      if (origin) set.headers['access-control-allow-origin'] = origin
      return bootConfigOf(integration, params.widget_key)
    },
    {
      params: t.Object({ widget_key: t.String() }),
      response: { 200: WidgetBootConfig, ...errorResponses(403, 404) },
      detail: { tags: ['Widget'], summary: "A widget's public configuration", security: [] },
    },
  )
}
