import type { AppLocale } from '../../../server/people/app-locales.ts'

/** Each language's name in itself, the same whatever language the app shows: how a person finds their own. */
export const AUTONYMS: Record<AppLocale, string> = { en: 'English', es: 'Español' }
