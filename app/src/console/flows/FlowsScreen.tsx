export default function FlowsScreen() {
  return <p class="muted">Coming next.</p>
}
