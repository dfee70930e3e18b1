import { render } from 'solid-js/web'
import { Shell } from './Shell.tsx'
import './styles.css'

const root = document.getElementById('app')
if (root) render(() => <Shell />, root)
