/**
 * Rows a store keeps in memory after reading them, newest use last, the oldest dropped past
 * `limit`. Only the store that owns the table fills and updates it, and it is forgotten
 * whenever its rows may have changed behind the store's back (a rolled-back batch, a
 * cascading delete), so a hit is always what SQLite would answer. One user is not a store and
 * may be a second behind: conversations/flow-snapshots.ts keeps each chatbot's entry version,
 * forgotten by the events that change it and after a second in any case.
 */
export class RowCache<Row> {
  private readonly rows = new Map<string, Row>()

  constructor(private readonly limit: number) {}

  get(key: string): Row | undefined {
    const row = this.rows.get(key)
    // Moving a row to the newest end costs a delete and an insert on every read (several per
    // chat turn); only worth it once the cache is half full, well before anything is dropped.
    if (row !== undefined && this.rows.size > this.limit >> 1) {
      this.rows.delete(key)
      this.rows.set(key, row)
    }
    return row
  }

  /** The cached row, or else what `read` finds (then cached; nothing cached when it finds nothing). */
  through(key: string, read: () => Row | undefined): Row | undefined {
    let row = this.get(key)
    if (row === undefined) {
      row = read()
      if (row !== undefined) this.set(key, row)
    }
    return row
  }

  set(key: string, row: Row): void {
    this.rows.delete(key)
    this.rows.set(key, row)
    if (this.rows.size > this.limit) this.rows.delete(this.rows.keys().next().value as string)
  }

  /** Changes a cached row in place; nothing when the row is not cached. */
  update(key: string, change: (row: Row) => void): void {
    const row = this.rows.get(key)
    if (row !== undefined) change(row)
  }

  delete(key: string): void {
    this.rows.delete(key)
  }

  clear(): void {
    this.rows.clear()
  }

  get size(): number {
    return this.rows.size
  }
}
