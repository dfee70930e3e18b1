/** The bars of a per-day chart, in the SVG's own units: no chart library for 30 rectangles. */
export interface Bar {
  date: string
  count: number
  x: number
  y: number
  width: number
  height: number
}

export function dayBars(days: { date: string; conversations: number }[], width: number, height: number): { bars: Bar[]; max: number } {
  const max = Math.max(1, ...days.map((day) => day.conversations))
  const slot = days.length > 0 ? width / days.length : width
  const gap = Math.min(2, slot * 0.2)
  const bars = days.map((day, index) => {
    const barHeight = (day.conversations / max) * height
    return { date: day.date, count: day.conversations, x: index * slot + gap / 2, y: height - barHeight, width: slot - gap, height: barHeight }
  })
  return { bars, max }
}
