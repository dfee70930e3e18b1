import { ApiError, invalidField, notFound } from '../http/api-error.ts'
import type { Units } from '../db/units.ts'
import type { Caller } from '../people/session-auth.ts'
import type { Clock } from '../support/clock.ts'
import { newId } from '../support/new-id.ts'
import type { Label, LabelBody, LabelColor, LabelPatch } from './model.ts'
import { type Carrier, type LabelRow, type LabelStore, nameKeyOf } from './store.ts'

/** A workspace's label set stays a set a person can pick from. */
export const MAX_LABELS_PER_WORKSPACE = 500
/** What one conversation or contact carries at most. */
export const MAX_LABELS_PER_CARRIER = 50
/** The colour of a label made without one (and of one a flow names before anyone made it). */
export const DEFAULT_LABEL_COLOR: LabelColor = 'grey'

export interface LabelServiceDeps {
  stores: { labels: LabelStore }
  units: Units<{ labels: LabelStore }>
  now: Clock
  /** Told after the commit, so that open desks show the change. */
  changed?: (change: { workspaceId: string; carrier: Carrier; labels: Label[] }) => void
}

export type LabelService = ReturnType<typeof labelService>

export const toLabel = ({ workspace_id: _w, name_key: _k, ...label }: LabelRow): Label => label

const taken = (name: string) =>
  new ApiError(409, 'label_taken', `the workspace has a label named "${name}" already (names are unique whatever their case)`, [
    { path: '/name', message: 'is the name of another label' },
  ])

/**
 * Labels: the workspace's set (name and colour, names unique whatever their case) and which
 * conversations and contacts carry them. Everything is looked up within the caller's
 * workspace: another workspace's ids answer 404, as if they did not exist.
 */
export function labelService({ stores, units, now, changed }: LabelServiceDeps) {
  async function label(workspaceId: string, id: string): Promise<LabelRow> {
    const found = await stores.labels.get(workspaceId, id)
    if (!found) throw notFound('label')
    return found
  }

  async function carrier(workspaceId: string, carrier: Carrier): Promise<void> {
    if (!(await stores.labels.carrierInWorkspace(workspaceId, carrier))) throw notFound(carrier.kind)
  }

  async function carriedNow(workspaceId: string, on: Carrier): Promise<Label[]> {
    const labels = (await stores.labels.carried(workspaceId, on)).map(toLabel)
    changed?.({ workspaceId, carrier: on, labels })
    return labels
  }

  return {
    list: async (caller: Caller): Promise<Label[]> => (await stores.labels.list(caller.workspaceId)).map(toLabel),

    async create(caller: Caller, body: LabelBody): Promise<Label> {
      const name = body.name.trim()
      if (name === '') throw invalidField('/name', 'must not be blank')
      if ((await stores.labels.list(caller.workspaceId)).length >= MAX_LABELS_PER_WORKSPACE) {
        throw new ApiError(409, 'too_many_labels', `a workspace has at most ${MAX_LABELS_PER_WORKSPACE} labels; delete one first`)
      }
      const row: LabelRow = {
        id: newId(),
        workspace_id: caller.workspaceId,
        name,
        name_key: nameKeyOf(name),
        color: body.color ?? DEFAULT_LABEL_COLOR,
        created_at: now(),
        updated_at: null,
      }
      if (!(await units.unit((tx) => tx.labels.insert(row)))) throw taken(name)
      return toLabel(row)
    },

    async update(caller: Caller, id: string, patch: LabelPatch): Promise<Label> {
      const before = await label(caller.workspaceId, id)
      const name = patch.name?.trim() ?? before.name
      if (name === '') throw invalidField('/name', 'must not be blank')
      const change = { name, name_key: nameKeyOf(name), color: patch.color ?? before.color, updated_at: now() }
      if (!(await units.unit((tx) => tx.labels.update(caller.workspaceId, id, change)))) throw taken(name)
      return toLabel({ ...before, ...change })
    },

    async remove(caller: Caller, id: string): Promise<void> {
      if (!(await units.unit((tx) => tx.labels.remove(caller.workspaceId, id)))) throw notFound('label')
    },

    async carried(caller: Caller, on: Carrier): Promise<Label[]> {
      await carrier(caller.workspaceId, on)
      return (await stores.labels.carried(caller.workspaceId, on)).map(toLabel)
    },

    /** Sets a label on a conversation or contact; setting it again changes nothing. Answers what it carries then. */
    async attach(caller: Caller, on: Carrier, labelId: string): Promise<Label[]> {
      await carrier(caller.workspaceId, on)
      await label(caller.workspaceId, labelId)
      const carried = await stores.labels.carried(caller.workspaceId, on)
      if (!carried.some((row) => row.id === labelId) && carried.length >= MAX_LABELS_PER_CARRIER) {
        throw new ApiError(409, 'too_many_labels', `a ${on.kind} carries at most ${MAX_LABELS_PER_CARRIER} labels; take one off first`)
      }
      await units.unit((tx) => tx.labels.attach(on, labelId, now()))
      return carriedNow(caller.workspaceId, on)
    },

    /** Takes a label off; 404 when it did not carry it. Answers what it carries then. */
    async detach(caller: Caller, on: Carrier, labelId: string): Promise<Label[]> {
      await carrier(caller.workspaceId, on)
      await label(caller.workspaceId, labelId)
      if (!(await units.unit((tx) => tx.labels.detach(on, labelId)))) throw notFound(`label on this ${on.kind}`)
      return carriedNow(caller.workspaceId, on)
    },
  }
}
