/**
 * At most `limit` runs at once per workspace; the others wait their turn in arrival order
 * (queued, never refused), so one busy workspace cannot hold every model connection.
 */
export function workspaceSlots(limit: number) {
  const workspaces = new Map<string, { active: number; waiting: (() => void)[] }>()

  return {
    async acquire(workspaceId: string): Promise<void> {
      const entry = workspaces.get(workspaceId) ?? { active: 0, waiting: [] }
      workspaces.set(workspaceId, entry)
      if (entry.active < limit) {
        entry.active++
        return
      }
      // The releasing run hands its slot over: `active` stays as it was.
      await new Promise<void>((resolve) => entry.waiting.push(resolve))
    },
    release(workspaceId: string): void {
      const entry = workspaces.get(workspaceId)
      if (!entry) return
      const next = entry.waiting.shift()
      if (next) return next()
      entry.active--
      if (entry.active === 0) workspaces.delete(workspaceId)
    },
    /** Runs under way in the workspace (for tests and the bench). */
    active: (workspaceId: string) => workspaces.get(workspaceId)?.active ?? 0,
  }
}
