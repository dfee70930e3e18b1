import { createSignal, For, Show } from 'solid-js'
import { incoming, renameState } from '../model/edits.ts'
import { KIND_LABELS, kindOf } from '../model/flow-model.ts'
import { isObject, type Json, pointerOf } from '../model/json.ts'
import { type Builder, Field } from './fields.tsx'
import { SayEditor } from './SayEditor.tsx'
import { WaysEditor } from './WaysEditor.tsx'

const KNOWN = new Set(['say', 'next', 'branch', 'end', 'on', 'capture', 'handoff', 'agent'])

/** The selected state, edited by form: its name, what it says, how it goes on; what points at it, before it is deleted. */
export function StatePanel(props: { builder: Builder; name: string; onRenamed: (name: string) => void; onDelete: () => void; onDuplicate: () => void }) {
  const base = () => pointerOf('states', props.name)
  const state = (): Json => {
    const states = props.builder.flow().states
    const value = isObject(states) ? states[props.name] : undefined
    return isObject(value) ? value : {}
  }
  const [renameError, setRenameError] = createSignal('')
  const [confirming, setConfirming] = createSignal(false)
  const rename = (to: string) => {
    const next = renameState(props.builder.flow(), props.name, to.trim())
    if (typeof next === 'string') return setRenameError(next)
    setRenameError('')
    props.builder.apply(next)
    props.onRenamed(to.trim())
  }
  const pointing = () => incoming(props.builder.flow(), props.name)
  const unknown = () => Object.keys(state()).filter((key) => !KNOWN.has(key))
  return (
    <div class="state-panel" data-panel-state={props.name}>
      <div class="panel-head">
        <span class={`node-kind kind-${kindOf(state())}`}>{KIND_LABELS[kindOf(state())]}</span>
        <Show when={props.builder.flow().start === props.name} fallback={<button type="button" class="link" onClick={() => props.builder.set('/start', props.name)}>Start here</button>}>
          <span class="node-start">start</span>
        </Show>
        <span class="spacer" />
        <button type="button" onClick={() => props.onDuplicate()} title="Copy and paste this state (Ctrl+C, Ctrl+V)">
          Duplicate
        </button>
        <button type="button" class="danger" onClick={() => setConfirming(true)}>
          Delete
        </button>
      </div>
      <Show when={confirming()}>
        <div class="confirm" role="alertdialog" aria-label={`Delete ${props.name}?`}>
          <p>
            Delete <strong>{props.name}</strong>?{' '}
            <Show when={pointing().length > 0} fallback="Nothing leads to it.">
              These lead to it and go with it:
            </Show>
          </p>
          <ul data-pointing>
            <For each={pointing()}>{(way) => <li>{way.way === 'start' ? 'the start of the flow (moves to the first state left)' : `${way.from}: ${way.label}`}</li>}</For>
          </ul>
          <div class="actions">
            <button type="button" class="danger" onClick={() => (setConfirming(false), props.onDelete())}>
              Delete it
            </button>
            <button type="button" onClick={() => setConfirming(false)}>
              Keep it
            </button>
          </div>
        </div>
      </Show>
      <Field label="Name" pointer={base()} builder={props.builder} exact>
        <input name="state_name" value={props.name} onChange={(event) => rename(event.currentTarget.value)} />
      </Field>
      <Show when={renameError()}>
        <p class="form-error">{renameError()}</p>
      </Show>
      <SayEditor builder={props.builder} base={base()} say={state().say} />
      <WaysEditor builder={props.builder} base={base()} name={props.name} state={state()} />
      <Show when={unknown().length > 0}>
        <p class="muted" data-unknown-keys>
          Also in this state, kept as they are (edit them in the JSON view): {unknown().join(', ')}.
        </p>
      </Show>
    </div>
  )
}
