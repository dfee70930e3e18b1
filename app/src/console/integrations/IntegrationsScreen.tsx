export default function IntegrationsScreen() {
  return <p class="muted">Coming next.</p>
}
