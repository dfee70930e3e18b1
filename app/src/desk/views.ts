export const VIEWS = [
  { id: 'waiting', name: 'Waiting', title: 'Waiting for a person', key: '1' },
  { id: 'mine', name: 'Mine', title: 'Assigned to me', key: '2' },
  { id: 'open', name: 'All open', title: 'All open conversations', key: '3' },
  { id: 'bot', name: 'With the bot', title: 'With the bot', key: '4' },
  { id: 'closed', name: 'Closed', title: 'Closed', key: '5' },
] as const

export type ViewId = (typeof VIEWS)[number]['id']

export function isView(value: unknown): value is ViewId {
  return VIEWS.some((view) => view.id === value)
}

export interface ListFilter {
  view: ViewId
  chatbot_id?: string
  channel?: string
  /** Only conversations the visitor rated: any, good, neutral or bad (the API's groups). */
  rating?: string
  q?: string
}

export const RATING_FILTERS = [
  { id: 'any', name: 'Rated' },
  { id: 'good', name: 'Rated good' },
  { id: 'neutral', name: 'Rated neutral' },
  { id: 'bad', name: 'Rated bad' },
] as const
