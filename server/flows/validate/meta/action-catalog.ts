/** The keys each action takes, and the version each action needs. */
import type { ActionName, PropSpec, Shape } from './spec.ts'
import { FEATURE_SINCE } from './versions.ts'

const NAME: PropSpec = { types: ['string'], required: 0, staticOnly: true }
const PAYLOAD: PropSpec = { types: ['object'], role: 'free' }

const NEXT: Shape = {
  name: 'next',
  props: {
    type: { types: ['string'], enum: ['screen', 'plugin'], staticOnly: true },
    name: { types: ['string'], required: 0, staticOnly: true },
  },
}

export const ACTION_SHAPES: Readonly<Record<ActionName, Shape>> = {
  navigate: { name: "a 'navigate' action", props: { name: NAME, next: { types: ['object'], required: 0, shape: NEXT }, payload: PAYLOAD } },
  complete: { name: "a 'complete' action", props: { name: NAME, payload: PAYLOAD } },
  data_exchange: { name: "a 'data_exchange' action", props: { name: NAME, payload: PAYLOAD } },
  update_data: { name: "an 'update_data' action", props: { name: NAME, payload: { ...PAYLOAD, required: 0 } } },
  open_url: { name: "an 'open_url' action", props: { name: NAME, url: { types: ['string'], required: 0 } } },
}

export const ACTION_SINCE: Readonly<Partial<Record<ActionName, number>>> = {
  update_data: FEATURE_SINCE.updateDataAction,
  open_url: FEATURE_SINCE.openUrlAction,
}
