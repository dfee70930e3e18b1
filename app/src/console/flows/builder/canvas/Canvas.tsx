import { getBezierPath, getViewportForBounds, type PanZoomInstance, PanOnScrollMode, Position as Side, XYPanZoom } from '@xyflow/system'
import { batch, createEffect, createMemo, createSignal, For, type JSX, on, onCleanup, onMount, Show } from 'solid-js'
import { keyedSignals } from './keyed-signals.ts'
import type { Position } from '../model/edits.ts'
import type { FlowEdge, FlowModel } from '../model/flow-model.ts'
import type { LevelledIssue } from '../model/issues.ts'
import { NODE_WIDTH } from '../model/layout.ts'
import { Minimap } from './Minimap.tsx'
import { NodeCard, type NodeInsight } from './NodeCard.tsx'
import { t } from '../../../../i18n/language.ts'

export interface CanvasApi {
  fit(): void
  zoomBy(factor: number): void
  centerOn(name: string): void
  /** The canvas point at the middle of what is shown, for a new state. */
  middle(): Position
  /** Every card where it is drawn, with its measured height (an estimate before it is measured). */
  cards(): { at: Position; height: number }[]
}

export interface CanvasProps {
  model: FlowModel
  places: Record<string, Position>
  selected: ReadonlySet<string>
  issues: Map<string, LevelledIssue[]>
  current: string | null
  walked: ReadonlySet<string>
  insights: { states: Map<string, NodeInsight>; ways: Map<string, number> } | null
  readOnly: boolean
  onSelect(names: string[], additive: boolean): void
  onMove(places: Record<string, Position>): void
  onConnect(from: string, way: string, to: string): void
  onOpen(name: string): void
  onKey(event: KeyboardEvent): void
  api(api: CanvasApi): void
}

const HEADER_MIDDLE = 20
const DRAG_THRESHOLD = 3
const MINIMAP_FROM = 12

/**
 * The flow drawn on a pannable, zoomable canvas (@xyflow/system's XYPanZoom: drag the
 * background, wheel or pinch to zoom, trackpad scroll), each state a card, each way an edge
 * from its port to the state it names. Cards move by dragging (the selection together), ways
 * are made by dragging from a port onto a card. Moves and ways are reported when the pointer
 * is let go; what the canvas shows in between is its own.
 */
export function Canvas(props: CanvasProps) {
  let pane!: HTMLDivElement
  let panZoom: PanZoomInstance | undefined
  const [zoomer, setZoomer] = createSignal<PanZoomInstance>()
  const [view, setView] = createSignal({ x: 0, y: 0, zoom: 1 })
  const [size, setSize] = createSignal({ width: 800, height: 560 })
  // Where each card is drawn: the definition's places, and the drag's while one is under way.
  const shown = keyedSignals<Position>(() => ({ x: 0, y: 0 }))
  const measured = keyedSignals<{ height: number; ports: Record<string, number> } | null>(() => null)
  const [link, setLink] = createSignal<{ from: string; way: string; start: Position; end: Position } | null>(null)
  createEffect(
    on(
      () => props.places,
      (places) =>
        batch(() => {
          for (const [name, at] of Object.entries(places)) {
            const was = shown.has(name) ? shown.get(name) : null
            if (!was || was.x !== at.x || was.y !== at.y) shown.set(name, { x: at.x, y: at.y })
          }
        }),
    ),
  )

  const toCanvas = (clientX: number, clientY: number): Position => {
    const box = pane.getBoundingClientRect()
    const { x, y, zoom } = view()
    return { x: (clientX - box.left - x) / zoom, y: (clientY - box.top - y) / zoom }
  }

  const names = createMemo(() => props.model.nodes.map((node) => node.name))
  // Cards are kept by name: an edit elsewhere keeps each card (and the focus a keyboard user has
  // on it); a name just gone may be read once more before its card goes, hence the stand-in.
  const nodeByName = createMemo(() => new Map(props.model.nodes.map((node) => [node.name, node])))
  const bounds = () => {
    const names = props.model.nodes.map((node) => node.name)
    if (names.length === 0) return { x: 0, y: 0, width: 400, height: 300 }
    let left = Infinity
    let top = Infinity
    let right = -Infinity
    let bottom = -Infinity
    for (const name of names) {
      const at = shown.get(name)
      left = Math.min(left, at.x)
      top = Math.min(top, at.y)
      right = Math.max(right, at.x + NODE_WIDTH)
      bottom = Math.max(bottom, at.y + (measured.get(name)?.height ?? 120))
    }
    return { x: left, y: top, width: right - left, height: bottom - top }
  }

  const fit = () => {
    const viewport = getViewportForBounds(bounds(), size().width, size().height, 0.2, 1.25, 0.08)
    void panZoom?.setViewport(viewport, { duration: 0 })
  }

  onMount(() => {
    const box = pane.getBoundingClientRect()
    setSize({ width: box.width, height: box.height })
    panZoom = XYPanZoom({
      domNode: pane,
      minZoom: 0.1,
      maxZoom: 2,
      translateExtent: [
        [-Infinity, -Infinity],
        [Infinity, Infinity],
      ],
      viewport: { x: 0, y: 0, zoom: 1 },
      onDraggingChange: () => {},
      onPanZoom: (_event, viewport) => setView(viewport),
    })
    panZoom.update({
      noWheelClassName: 'nowheel',
      noPanClassName: 'nopan',
      preventScrolling: true,
      panOnScroll: false,
      panOnDrag: true,
      panOnScrollMode: PanOnScrollMode.Free,
      panOnScrollSpeed: 0.5,
      userSelectionActive: false,
      zoomOnPinch: true,
      zoomOnScroll: true,
      zoomOnDoubleClick: false,
      zoomActivationKeyPressed: false,
      lib: 'parley',
      onTransformChange: ([x, y, zoom]) => setView({ x, y, zoom }),
      connectionInProgress: false,
      paneClickDistance: 2,
    })
    setZoomer(panZoom)
    const resized = new ResizeObserver(([entry]) => entry && setSize({ width: entry.contentRect.width, height: entry.contentRect.height }))
    resized.observe(pane)
    onCleanup(() => {
      resized.disconnect()
      panZoom?.destroy()
    })
    props.api({
      fit,
      zoomBy: (factor) => void panZoom?.scaleBy(factor, { duration: 0 }),
      centerOn(name) {
        if (!shown.has(name)) return
        const at = shown.get(name)
        const { zoom } = view()
        void panZoom?.setViewport({ x: size().width / 2 - (at.x + NODE_WIDTH / 2) * zoom, y: size().height / 3 - at.y * zoom, zoom }, { duration: 0 })
      },
      cards: () => names().map((name) => ({ at: shown.get(name), height: measured.get(name)?.height ?? 120 })),
      middle: () => toCanvas(pane.getBoundingClientRect().left + size().width / 2 - NODE_WIDTH / 2, pane.getBoundingClientRect().top + size().height / 3),
    })
    requestAnimationFrame(fit)
  })

  /**
   * Cards' heights and the middle of each port, read from the DOM (offsets ignore the zoom) by
   * one observer: every card's reads first, then every write, so that 200 cards cost one
   * layout, not one each.
   */
  const cardNames = new Map<Element, string>()
  const measureCards = (cards: Element[]) => {
    const read = cards.flatMap((target) => {
      const name = cardNames.get(target)
      if (!name) return []
      const card = target as HTMLElement
      const ports: Record<string, number> = {}
      for (const row of card.querySelectorAll<HTMLElement>('[data-port]')) ports[row.dataset.port as string] = row.offsetTop + row.offsetHeight / 2
      return [{ name, height: card.offsetHeight, ports }]
    })
    batch(() => {
      for (const { name, ...size } of read) measured.set(name, size)
    })
  }
  const sizes = new ResizeObserver((entries) => measureCards(entries.map((entry) => entry.target)))
  onCleanup(() => sizes.disconnect())
  const observe = (name: string, card: HTMLElement) => {
    cardNames.set(card, name)
    sizes.observe(card)
    return () => {
      sizes.unobserve(card)
      cardNames.delete(card)
    }
  }
  // Ports can move within a card of the same size (transitions reordered): read them again after each change.
  createEffect(on(() => props.model, () => requestAnimationFrame(() => measureCards([...cardNames.keys()])), { defer: true }))

  // Dragging cards: the selection moves together; a press without a move is a click.
  const startDrag = (name: string, event: PointerEvent) => {
    if (event.button !== 0 || props.readOnly) return
    const additive = event.shiftKey || event.metaKey || event.ctrlKey
    const moving = props.selected.has(name) && !additive ? [...props.selected] : [name]
    const origin = Object.fromEntries(moving.filter((n) => shown.has(n)).map((n) => [n, { ...shown.get(n) }]))
    const startX = event.clientX
    const startY = event.clientY
    let dragged = false
    const target = event.currentTarget as HTMLElement
    target.setPointerCapture(event.pointerId)
    const move = (e: PointerEvent) => {
      const dx = (e.clientX - startX) / view().zoom
      const dy = (e.clientY - startY) / view().zoom
      if (!dragged && Math.hypot(e.clientX - startX, e.clientY - startY) < DRAG_THRESHOLD) return
      if (!dragged) {
        dragged = true
        // Its own layer while it moves: the other cards are not painted again each frame.
        target.classList.add('dragging')
        if (!props.selected.has(name)) props.onSelect([name], additive)
      }
      batch(() => {
        for (const [n, at] of Object.entries(origin)) shown.set(n, { x: at.x + dx, y: at.y + dy })
      })
    }
    const up = () => {
      target.removeEventListener('pointermove', move)
      target.removeEventListener('pointerup', up)
      target.removeEventListener('pointercancel', up)
      target.classList.remove('dragging')
      if (dragged) props.onMove(Object.fromEntries(Object.keys(origin).map((n) => [n, { ...shown.get(n) }])))
      else props.onSelect([name], additive)
    }
    target.addEventListener('pointermove', move)
    target.addEventListener('pointerup', up)
    target.addEventListener('pointercancel', up)
  }

  // Making a way: from a port, onto any part of a card.
  const startLink = (from: string, way: string, event: PointerEvent) => {
    if (event.button !== 0 || props.readOnly) return
    event.stopPropagation()
    const start = sourcePoint(from, way)
    setLink({ from, way, start, end: toCanvas(event.clientX, event.clientY) })
    const move = (e: PointerEvent) => setLink((current) => current && { ...current, end: toCanvas(e.clientX, e.clientY) })
    const up = (e: PointerEvent) => {
      window.removeEventListener('pointermove', move)
      window.removeEventListener('pointerup', up)
      setLink(null)
      const card = document.elementFromPoint(e.clientX, e.clientY)?.closest<HTMLElement>('[data-state]')
      if (card?.dataset.state) props.onConnect(from, way, card.dataset.state)
    }
    window.addEventListener('pointermove', move)
    window.addEventListener('pointerup', up)
  }

  const sourcePoint = (name: string, way: string): Position => {
    const at = shown.get(name)
    return { x: at.x + NODE_WIDTH, y: at.y + (measured.get(name)?.ports[way] ?? HEADER_MIDDLE) }
  }

  const edgePath = (edge: FlowEdge) => {
    const source = sourcePoint(edge.from, edge.way)
    const into = shown.get(edge.to)
    if (edge.from === edge.to) {
      // A way back into its own state: a loop around the card's right edge to its header.
      const top = into.y + HEADER_MIDDLE
      return { d: `M ${source.x} ${source.y} C ${source.x + 60} ${source.y}, ${source.x + 60} ${top - 40}, ${source.x - NODE_WIDTH / 2} ${into.y - 14} S ${into.x - 40} ${top}, ${into.x} ${top}`, x: source.x + 40, y: (source.y + top) / 2 - 20 }
    }
    const [d, x, y] = getBezierPath({ sourceX: source.x, sourceY: source.y, sourcePosition: Side.Right, targetX: into.x, targetY: into.y + HEADER_MIDDLE, targetPosition: Side.Left })
    return { d, x, y }
  }

  const backgroundClick: JSX.EventHandler<HTMLDivElement, MouseEvent> = (event) => {
    if (event.target === pane || (event.target as HTMLElement).classList.contains('canvas-viewport')) props.onSelect([], false)
  }

  return (
    <div class="canvas" tabindex="0" role="application" aria-label={t('builder.canvas')} onKeyDown={(event) => props.onKey(event)}>
      <div class="canvas-pane" ref={pane} onClick={backgroundClick} data-canvas>
        <div class="canvas-viewport" style={{ transform: `translate(${view().x}px, ${view().y}px) scale(${view().zoom})` }} classList={{ 'far-out': view().zoom < 0.5 }}>
          <svg class="canvas-edges" width="1" height="1" aria-hidden="true">
            <defs>
              <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">
                <path d="M 0 0 L 10 5 L 0 10 z" />
              </marker>
            </defs>
            <For each={props.model.edges}>
              {(edge) => {
                const path = () => edgePath(edge)
                const times = () => props.insights?.ways.get(`${edge.from}|${edge.way}`)
                return (
                  <g class={`edge edge-${edge.kind}`} classList={{ walked: props.walked.has(edge.id), selected: props.selected.has(edge.from) || props.selected.has(edge.to) }} data-edge={edge.id}>
                    <path d={path().d} marker-end="url(#arrow)" style={times() ? { 'stroke-width': `${Math.min(8, 1.5 + Math.log2(1 + (times() as number)))}px` } : {}} />
                    <Show when={props.insights}>
                      <text x={path().x} y={path().y - 4} class="edge-count" text-anchor="middle">
                        {times() ?? 0}
                      </text>
                    </Show>
                  </g>
                )
              }}
            </For>
            <Show when={link()}>
              {(drawn) => <path class="edge-drawing" d={getBezierPath({ sourceX: drawn().start.x, sourceY: drawn().start.y, sourcePosition: Side.Right, targetX: drawn().end.x, targetY: drawn().end.y, targetPosition: Side.Left })[0]} />}
            </Show>
          </svg>
          <For each={names()}>
            {(name) => (
              <NodeCard
                node={nodeByName().get(name) ?? { name, kind: 'message', says: [], asks: null, ports: [] }}
                at={shown.get(name)}
                start={props.model.start === name}
                unreachable={props.model.unreachable.has(name)}
                deadEnd={props.model.deadEnds.has(name)}
                selected={props.selected.has(name)}
                current={props.current === name}
                issues={props.issues.get(name) ?? []}
                insight={props.insights?.states.get(name) ?? (props.insights ? null : undefined)}
                onPress={(event) => startDrag(name, event)}
                onPortPress={(way, event) => startLink(name, way, event)}
                onOpen={() => props.onOpen(name)}
                onKeyFocus={() => props.onSelect([name], false)}
                observe={(card) => observe(name, card)}
              />
            )}
          </For>
        </div>
      </div>
      <Show when={props.model.nodes.length >= MINIMAP_FROM && zoomer()}>
        <Minimap panZoom={zoomer() as PanZoomInstance} view={view()} size={size()} bounds={bounds()} names={names()} at={(name) => shown.get(name)} height={(name) => measured.get(name)?.height ?? 100} current={props.current} />
      </Show>
    </div>
  )
}
