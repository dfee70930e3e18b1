/** Undo and redo over whole definitions: each change pushes the one before it. */
export function history<T>(limit = 200) {
  const undone: T[] = []
  const done: T[] = []
  return {
    push(before: T): void {
      done.push(before)
      if (done.length > limit) done.shift()
      undone.length = 0
    },
    undo(current: T): T | undefined {
      const before = done.pop()
      if (before !== undefined) undone.push(current)
      return before
    },
    redo(current: T): T | undefined {
      const after = undone.pop()
      if (after !== undefined) done.push(current)
      return after
    },
    canUndo: () => done.length > 0,
    canRedo: () => undone.length > 0,
  }
}
