/**
 * The languages the app at /app (the desk and the console) speaks, as plain constants: the
 * server's schema of a person's `locale` and the app's catalogues (app/src/i18n/) both read
 * them, and a test checks that each has a catalogue. English first: what the app falls back to.
 */
export const APP_LOCALES = ['en', 'es'] as const
export type AppLocale = (typeof APP_LOCALES)[number]
