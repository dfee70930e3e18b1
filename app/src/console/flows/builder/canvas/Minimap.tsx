import { type PanZoomInstance, XYMinimap } from '@xyflow/system'
import { createEffect, For, onCleanup, onMount } from 'solid-js'
import type { Position } from '../model/edits.ts'
import { NODE_WIDTH } from '../model/layout.ts'
import { t } from '../../../../i18n/language.ts'

const WIDTH = 180
const HEIGHT = 120

/** The whole flow small, with the part shown framed; drag or wheel in it to move the canvas (XYMinimap). */
export function Minimap(props: {
  panZoom: PanZoomInstance
  view: { x: number; y: number; zoom: number }
  size: { width: number; height: number }
  bounds: { x: number; y: number; width: number; height: number }
  /** The states, drawn by name: a card dragged moves its own rectangle only. */
  names: string[]
  at: (name: string) => Position
  height: (name: string) => number
  current: string | null
}) {
  let svg!: SVGSVGElement
  // What is shown, in canvas coordinates, and the box that holds it and the whole flow.
  const shownBox = () => ({ x: -props.view.x / props.view.zoom, y: -props.view.y / props.view.zoom, width: props.size.width / props.view.zoom, height: props.size.height / props.view.zoom })
  const box = () => {
    const a = props.bounds
    const b = shownBox()
    const x = Math.min(a.x, b.x)
    const y = Math.min(a.y, b.y)
    return { x, y, width: Math.max(a.x + a.width, b.x + b.width) - x, height: Math.max(a.y + a.height, b.y + b.height) - y }
  }
  const scale = () => Math.max(box().width / WIDTH, box().height / HEIGHT)
  onMount(() => {
    const minimap = XYMinimap({ domNode: svg, panZoom: props.panZoom, getTransform: () => [props.view.x, props.view.y, props.view.zoom], getViewScale: scale })
    createEffect(() =>
      minimap.update({
        translateExtent: [
          [-Infinity, -Infinity],
          [Infinity, Infinity],
        ],
        width: props.size.width,
        height: props.size.height,
      }),
    )
    onCleanup(() => minimap.destroy())
  })
  const viewBox = () => {
    const b = box()
    const s = scale()
    const x = b.x - (WIDTH * s - b.width) / 2
    const y = b.y - (HEIGHT * s - b.height) / 2
    return `${x} ${y} ${WIDTH * s} ${HEIGHT * s}`
  }
  return (
    <svg ref={svg} class="minimap nopan nowheel" width={WIDTH} height={HEIGHT} viewBox={viewBox()} role="img" aria-label={t('builder.minimap')} data-minimap>
      <For each={props.names}>{(name) => <rect class="minimap-node" classList={{ current: name === props.current }} x={props.at(name).x} y={props.at(name).y} width={NODE_WIDTH} height={props.height(name)} rx="12" />}</For>
      <rect class="minimap-view" x={shownBox().x} y={shownBox().y} width={shownBox().width} height={shownBox().height} />
    </svg>
  )
}
