/**
 * The builder's styles, adopted into the document when the builder first opens: in app.css
 * they would be in every first load (the app's CSS is one file), and a <style> element is
 * refused by the app's CSP (style-src 'self'); a constructed stylesheet is neither.
 */
const CSS = `
.builder { display: grid; gap: 8px; min-width: 0; }
.builder [hidden] { display: none !important; }
.builder-toolbar { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; }
.builder-toolbar .spacer { flex: 1; }
.builder-toolbar .palette { display: flex; flex-wrap: wrap; gap: 4px; }
.builder-toolbar button.add { font-size: 13px; padding: 5px 8px; border-left-width: 4px; }
.builder button.icon { min-width: 30px; padding: 4px 6px; }
.builder-notice { background: #fff4e5; color: var(--warn); border: 1px solid #f3d98b; border-radius: 8px; padding: 8px 12px; margin: 0; }
.builder-main { display: grid; grid-template-columns: minmax(0, 1fr) 360px; gap: 12px; align-items: stretch; }
.builder-canvas { position: relative; min-width: 0; }
.builder-panel { background: var(--panel); border: 1px solid var(--line); border-radius: 10px; padding: 12px; overflow: auto; max-height: min(640px, calc(100vh - 100px)); display: grid; gap: 10px; align-content: start; }
.builder-keys { font-size: 12px; margin: 0; }
.builder-panel > .tabs { margin: -4px 0 4px; }
.side-try .card { border: none; padding: 0; }
.side-try .chat-log { max-height: 420px; min-height: 120px; }
.canvas { position: relative; height: min(640px, max(360px, calc(100vh - 100px))); border: 1px solid var(--line); border-radius: 10px; overflow: hidden; background-color: #fbfcfd; background-image: radial-gradient(#dfe3e8 1px, transparent 1px); background-size: 20px 20px; outline: none; touch-action: none; }
.canvas:focus-visible { outline: 2px solid var(--accent); }
.canvas-pane { position: absolute; inset: 0; cursor: grab; }
.canvas-pane:active { cursor: grabbing; }
.canvas-viewport { position: absolute; left: 0; top: 0; transform-origin: 0 0; }
.canvas-edges { position: absolute; left: 0; top: 0; overflow: visible; pointer-events: none; }
.canvas-edges marker path { fill: #8a94a3; }
.edge path { fill: none; stroke: #9aa4b1; stroke-width: 1.6px; }
.edge-button path, .edge-row path { stroke: #3b82f6; }
.edge-equals path, .edge-match path { stroke: #7c3aed; }
.edge-fallback path, .edge-else path { stroke: #9aa4b1; stroke-dasharray: 5 4; }
.edge-capture path { stroke: #0e9f6e; }
.edge-exit path, .edge-limit path { stroke: #c026d3; }
.edge-error path { stroke: var(--danger); stroke-dasharray: 3 3; }
.edge-branch path, .edge-hours path { stroke: #d97706; }
.edge.selected path { stroke-width: 2.6px; }
.edge.walked path { stroke: #f59e0b; stroke-width: 3.5px; }
.edge-count { font-size: 12px; font-weight: 700; fill: #111827; paint-order: stroke; stroke: #fff; stroke-width: 3px; }
.edge-drawing { fill: none; stroke: var(--accent); stroke-width: 2px; stroke-dasharray: 6 4; }
.node { position: absolute; left: 0; top: 0; background: #fff; border: 1.5px solid #c9d0d8; border-left-width: 5px; border-radius: 10px; box-shadow: 0 1px 2px rgba(16, 24, 40, 0.06); cursor: pointer; user-select: none; font-size: 13px; touch-action: none; }
.node:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
.node.selected { border-color: var(--accent); box-shadow: 0 0 0 3px rgba(0, 87, 217, 0.18); }
.node.dragging { will-change: transform; }
.node.current { box-shadow: 0 0 0 4px #fbbf24; }
.node.start { border-top-width: 3px; border-top-color: var(--accent); }
.node.unreachable { border-style: dashed; background: #f3f4f6; }
.node.dead-end { border-right: 3px solid var(--danger); }
.node.has-errors { border-color: var(--danger); }
.node.has-errors.selected { box-shadow: 0 0 0 3px rgba(180, 35, 24, 0.2); }
.kind-message { border-left-color: #64748b; }
.kind-question { border-left-color: #3b82f6; }
.kind-list { border-left-color: #0891b2; }
.kind-capture { border-left-color: #0e9f6e; }
.kind-condition { border-left-color: #d97706; }
.kind-handoff { border-left-color: #e11d48; }
.kind-agent { border-left-color: #c026d3; }
.kind-end { border-left-color: #111827; }
.node-head { display: flex; align-items: center; gap: 6px; padding: 7px 10px 4px; flex-wrap: wrap; }
.node-kind { font-size: 11px; font-weight: 700; text-transform: uppercase; letter-spacing: 0.03em; color: #fff; background: #475569; border-radius: 4px; padding: 1px 5px; }
.node.kind-question .node-kind, span.kind-question { background: #1d4ed8; }
.node.kind-list .node-kind, span.kind-list { background: #0e7490; }
.node.kind-capture .node-kind, span.kind-capture { background: #047857; }
.node.kind-condition .node-kind, span.kind-condition { background: #b45309; }
.node.kind-handoff .node-kind, span.kind-handoff { background: #be123c; }
.node.kind-agent .node-kind, span.kind-agent { background: #a21caf; }
.node.kind-end .node-kind, span.kind-end { background: #111827; }
.node-name { font-weight: 650; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; max-width: 130px; }
.node-start { font-size: 11px; color: var(--accent); font-weight: 700; }
.node-errors { margin-left: auto; font-size: 11px; font-weight: 700; color: #fff; background: var(--danger); border-radius: 8px; padding: 0 6px; }
.node-warnings { margin-left: auto; font-size: 11px; font-weight: 700; color: var(--warn); }
.node-body { padding: 0 10px 6px; display: grid; gap: 2px; }
.node-body p { margin: 0; }
.node-says { color: var(--ink); overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.node-more, .node-asks { color: var(--muted); font-size: 12px; }
.node-issue { color: var(--danger); font-size: 12px; }
.node-insight { font-size: 12px; font-weight: 600; color: #92400e; background: #fef3c7; border-radius: 4px; padding: 1px 4px; }
.node-ports { list-style: none; margin: 0; padding: 0 0 6px; border-top: 1px solid var(--line); }
.port { position: relative; display: flex; gap: 6px; align-items: center; padding: 3px 22px 3px 10px; font-size: 12px; min-height: 24px; }
.port-label { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.port-to { color: var(--muted); margin-left: auto; white-space: nowrap; overflow: hidden; text-overflow: ellipsis; max-width: 90px; }
.port.open .port-label { color: var(--muted); font-style: italic; }
.port.faulty .port-label { color: var(--danger); }
.handle { position: absolute; right: -8px; top: 50%; width: 14px; height: 14px; margin-top: -7px; border-radius: 50%; background: #fff; border: 2px solid #8a94a3; cursor: crosshair; }
.port-button .handle, .port-row .handle { border-color: #3b82f6; }
.port-capture .handle { border-color: #0e9f6e; }
.port-exit .handle, .port-limit .handle { border-color: #c026d3; }
.port-branch .handle, .port-hours .handle { border-color: #d97706; }
.port-error .handle { border-color: var(--danger); }
.port.open .handle { background: #fff7d6; }
.handle:hover { transform: scale(1.25); }
.far-out .node-body, .far-out .edge-count { display: none; }
.minimap { position: absolute; right: 10px; bottom: 10px; background: rgba(255, 255, 255, 0.92); border: 1px solid var(--line); border-radius: 6px; cursor: move; }
.minimap-node { fill: #cbd5e1; }
.minimap-node.current { fill: #f59e0b; }
.minimap-view { fill: rgba(0, 87, 217, 0.08); stroke: var(--accent); stroke-width: 6px; vector-effect: non-scaling-stroke; }
.templates { position: absolute; inset: 40px 40px auto; background: #fff; border: 1px solid var(--line); border-radius: 12px; padding: 18px; display: grid; gap: 10px; box-shadow: 0 6px 24px rgba(16, 24, 40, 0.08); }
.templates h3 { margin: 0; }
.template-cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(190px, 1fr)); gap: 10px; }
.template-card { display: grid; gap: 4px; text-align: left; padding: 12px; }
.insights-bar { display: flex; gap: 10px; align-items: center; flex-wrap: wrap; font-size: 13px; }
.state-panel, .flow-settings { display: grid; gap: 10px; }
.panel-head { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; }
/* Grid items grow to their content unless told: the narrower panel of a tablet keeps its width. */
.builder-panel > *, .side-edit > *, .state-panel > *, .flow-settings > *, .panel-section > *, .message-editor > *, .way-row > *, .section-editor > * { min-width: 0; }
.panel-head .spacer { flex: 1; }
.panel-section { display: grid; gap: 8px; border-top: 1px solid var(--line); padding-top: 10px; }
.panel-section h3, .flow-settings h3, .flow-settings h4, .agent-editor h4 { margin: 0; font-size: 14px; }
.field { display: grid; gap: 3px; min-width: 0; }
.field label { display: grid; gap: 3px; }
.field-label { font-size: 12px; font-weight: 600; color: var(--muted); }
.field input, .field select, .field textarea { width: 100%; min-width: 0; }
.field.invalid input, .field.invalid select, .field.invalid textarea { border-color: var(--danger); background: #fff7f6; }
.field-issue { margin: 0; font-size: 12px; }
/* The desk's list rows are .row too (styles.css: full width, padded, underlined), and these rules stay adopted once the builder opened: scoped both ways. */
.builder .row { display: flex; gap: 6px; align-items: end; flex-wrap: wrap; width: auto; padding: 0; border: none; background: none; }
.builder .row > .field { flex: 1; }
.row-tools { display: inline-flex; gap: 2px; margin-left: auto; }
.message-editor > .row > select, .way-row > .row > select { flex: 1 1 0; min-width: 0; }
.row-tools { flex: none; }
.chat-log .agent { justify-self: start; background: #fbf1fd; border-left: 3px solid #c026d3; border-radius: 10px; padding: 6px 10px; }
.message-editor, .way-row, .section-editor { display: grid; gap: 6px; border: 1px solid var(--line); border-radius: 8px; padding: 8px; }
.choices { display: grid; gap: 4px; }
.choice .id-input { width: 90px; font-family: ui-monospace, monospace; font-size: 12px; }
.days, .tool-list { display: flex; gap: 8px; flex-wrap: wrap; }
.day { display: inline-flex; gap: 3px; align-items: center; font-weight: normal; }
.template-field { position: relative; display: block; }
.template-offer { position: absolute; z-index: 5; left: 0; right: 0; top: 100%; margin: 2px 0 0; padding: 4px; list-style: none; background: #fff; border: 1px solid var(--line); border-radius: 6px; box-shadow: 0 6px 18px rgba(16, 24, 40, 0.12); max-height: 180px; overflow: auto; }
.template-offer li { padding: 4px 8px; border-radius: 4px; cursor: pointer; font-family: ui-monospace, monospace; font-size: 12px; }
.template-offer li.active, .template-offer li:hover { background: var(--accent-soft); color: var(--accent); }
.confirm { border: 1px solid #f3c9c4; background: #fff7f6; border-radius: 8px; padding: 10px; }
.confirm p { margin: 0 0 6px; }
.confirm ul { margin: 0 0 8px; padding-left: 18px; }
.variable code { flex: 1; }
/* A tablet held sideways keeps the panel beside the canvas, narrower; upright, it goes under. */
@media (max-width: 1100px) {
  .builder-main { grid-template-columns: minmax(0, 1fr) 300px; }
}
@media (max-width: 900px) {
  .builder-main { grid-template-columns: 1fr; }
  .builder-panel { max-height: none; }
  .canvas { height: 520px; }
}
`

let adopted = false

export function adoptBuilderStyles(): void {
  if (adopted) return
  adopted = true
  const sheet = new CSSStyleSheet()
  sheet.replaceSync(CSS)
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet]
}
