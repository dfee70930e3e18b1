/** The bars of a per-day chart, in the SVG's own units: no chart library for 30 rectangles. */
export interface Bar {
  date: string
  count: number
  x: number
  y: number
  width: number
  height: number
}

export function dayBars<Day extends { date: string; conversations: number }>(
  days: Day[],
  width: number,
  height: number,
  valueOf: (day: Day) => number = (day) => day.conversations,
): { bars: Bar[]; max: number } {
  const max = Math.max(1, ...days.map(valueOf))
  const slot = days.length > 0 ? width / days.length : width
  const gap = Math.min(2, slot * 0.2)
  const bars = days.map((day, index) => {
    const barHeight = (valueOf(day) / max) * height
    return { date: day.date, count: valueOf(day), x: index * slot + gap / 2, y: height - barHeight, width: slot - gap, height: barHeight }
  })
  return { bars, max }
}
