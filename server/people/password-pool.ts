/** Why a check was not run: too many waiting from its address, or in all, or it waited too long. */
export class PasswordPoolRefusal extends Error {
  constructor(readonly reason: 'address' | 'full' | 'late') {
    super(`password check refused: ${reason}`)
    this.name = 'PasswordPoolRefusal'
  }
}

export interface PasswordPoolOptions {
  /** Checks (argon2id hashes or verifications) running at once. */
  concurrency: number
  /** Checks one address may have waiting; more are refused at once. */
  waitingPerAddress?: number
  /** Checks waiting in all, per lane; more are refused at once. */
  waitingInAll?: number
  /** A check still waiting after this long is refused (its client has likely given up). */
  maxWaitMs?: number
  now?: () => number
}

interface Job {
  run: () => void
  refuse: (refusal: PasswordPoolRefusal) => void
  queuedAt: number
}

export type PasswordPool = ReturnType<typeof passwordPool>

/**
 * Password hashing (argon2id: 64 MiB and ~100 ms of a core each) on a bounded pool with its
 * own queue, so that a flood of sign-ins cannot hold the CPU, the memory or the turn of a
 * correct sign-in: at most `concurrency` checks run at once and the rest wait in two lanes.
 *
 * - The first lane holds the attempts of addresses in good standing (the caller decides: no
 *   recent failures) that have nothing else waiting or running, one per address. It is
 *   served first, newest first: under a flood, someone who just arrived is served next
 *   rather than after every attempt that arrived before (adaptive LIFO), and the attempts of
 *   a flood's addresses are in the second lane after their first.
 * - The second lane holds everything else, served one address at a time in turn (each
 *   address's own attempts in order), so many attempts from one address delay only that
 *   address.
 *
 * Bounded: a few waiting per address, a limit per lane, and a longest wait; past them a check
 * is refused (PasswordPoolRefusal) without being run.
 */
export function passwordPool(options: PasswordPoolOptions) {
  const { concurrency, waitingPerAddress = 4, waitingInAll = 1000, maxWaitMs = 10_000, now = () => performance.now() } = options
  /** Newest last; one job per address. */
  const first: { address: string; job: Job }[] = []
  /** In turn: the map's order is the order addresses are served in; a served address goes to the back. */
  const later = new Map<string, Job[]>()
  let laterCount = 0
  /** Checks running or waiting, per address. */
  const busy = new Map<string, number>()
  let running = 0

  const busyOf = (address: string) => busy.get(address) ?? 0
  function settleOne(address: string): void {
    const left = busyOf(address) - 1
    if (left > 0) busy.set(address, left)
    else busy.delete(address)
  }

  function nextJob(): { address: string; job: Job } | undefined {
    const newest = first.pop()
    if (newest) return newest
    const turn = later.entries().next()
    if (turn.done) return undefined
    const [address, jobs] = turn.value
    const job = jobs.shift() as Job
    later.delete(address)
    if (jobs.length > 0) later.set(address, jobs)
    laterCount--
    return { address, job }
  }

  function pump(): void {
    while (running < concurrency) {
      const next = nextJob()
      if (!next) return
      if (now() - next.job.queuedAt > maxWaitMs) {
        settleOne(next.address)
        next.job.refuse(new PasswordPoolRefusal('late'))
        continue
      }
      running++
      next.job.run()
    }
  }

  return {
    /**
     * Runs `check` once a slot is free and answers what it answers. `goodStanding`: the
     * address has not failed lately; its first attempt then goes to the first lane.
     */
    run<T>(address: string, goodStanding: boolean, check: () => Promise<T>): Promise<T> {
      const already = busyOf(address)
      if (already > waitingPerAddress) return Promise.reject(new PasswordPoolRefusal('address'))
      const toFirst = goodStanding && already === 0
      if ((toFirst ? first.length : laterCount) >= waitingInAll) return Promise.reject(new PasswordPoolRefusal('full'))
      busy.set(address, already + 1)
      return new Promise<T>((resolve, reject) => {
        const job: Job = {
          queuedAt: now(),
          refuse: reject,
          run: () => {
            check()
              .then(resolve, reject)
              .finally(() => {
                running--
                settleOne(address)
                pump()
              })
          },
        }
        if (toFirst) first.push({ address, job })
        else {
          const jobs = later.get(address)
          if (jobs) jobs.push(job)
          else later.set(address, [job])
          laterCount++
        }
        pump()
      })
    },

    /** Checks running and waiting (tests, the status page). */
    load: () => ({ running, waiting: first.length + laterCount }),
  }
}
