import { t } from '../i18n/language.ts'

/** The desk's views; their names and titles are texts of the catalogue (desk.view.{id}, desk.view.{id}Title). */
export const VIEWS = [
  { id: 'waiting', key: '1' },
  { id: 'mine', key: '2' },
  { id: 'open', key: '3' },
  { id: 'bot', key: '4' },
  { id: 'closed', key: '5' },
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
  /** Only conversations carrying this label (its id). */
  label_id?: string
  q?: string
}

export const RATING_FILTERS = ['any', 'good', 'neutral', 'bad'] as const

export const viewName = (view: ViewId): string => t(`desk.view.${view}`)
export const viewTitle = (view: ViewId): string => t(`desk.view.${view}Title`)
export const ratingFilterName = (rating: (typeof RATING_FILTERS)[number]): string => t(`desk.rated.${rating}`)
