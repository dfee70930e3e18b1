export default function FlowEditorScreen() {
  return <p class="muted">Coming next.</p>
}
