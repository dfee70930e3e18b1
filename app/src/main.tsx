import { render } from 'solid-js/web'
import { Shell } from './Shell.tsx'
import './styles.css'
import { applyLanguage } from './i18n/language.ts'

const root = document.getElementById('app')
// The browser's language first (the person's own once /auth/me answers): the first screen is drawn in it.
if (root) void applyLanguage(null).catch(() => {}).finally(() => render(() => <Shell />, root))
