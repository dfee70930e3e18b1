import { t } from '../../../../i18n/language.ts'
import { createSignal, onMount, Show } from 'solid-js'
import { renameState } from '../model/edits.ts'
import { kindLabel, kindOf } from '../model/flow-model.ts'
import { isObject, type Json, pointerOf } from '../model/json.ts'
import { type Builder, Field } from './fields.tsx'
import { SayEditor } from './SayEditor.tsx'
import { WaysEditor } from './WaysEditor.tsx'

const KNOWN = new Set(['say', 'next', 'branch', 'end', 'on', 'capture', 'handoff', 'agent'])

/** The selected state, edited by form: its name, what it says, how it goes on; its deletion asked for (FlowBuilder asks what points at it). */
export function StatePanel(props: { builder: Builder; name: string; onRenamed: (name: string) => void; onDelete: () => void; onDuplicate: () => void }) {
  const base = () => pointerOf('states', props.name)
  const state = (): Json => {
    const states = props.builder.flow().states
    const value = isObject(states) ? states[props.name] : undefined
    return isObject(value) ? value : {}
  }
  const [renameError, setRenameError] = createSignal('')
  const rename = (to: string) => {
    const next = renameState(props.builder.flow(), props.name, to.trim())
    if (typeof next === 'string') return setRenameError(next)
    setRenameError('')
    props.builder.apply(next)
    props.onRenamed(to.trim())
  }
  const unknown = () => Object.keys(state()).filter((key) => !KNOWN.has(key))
  let panel!: HTMLDivElement
  // Opened, a state shows its first field the validator finds wrong; under the canvas (a
  // narrow screen), a state tapped brings its form into view.
  onMount(() => {
    const wrong = panel.querySelector('.field.invalid')
    if (wrong) wrong.scrollIntoView({ block: 'nearest' })
    else if (window.matchMedia('(max-width: 900px)').matches) panel.scrollIntoView({ block: 'nearest' })
  })
  return (
    <div class="state-panel" data-panel-state={props.name} ref={panel}>
      <div class="panel-head">
        <span class={`node-kind kind-${kindOf(state())}`}>{kindLabel(kindOf(state()))}</span>
        <Show when={props.builder.flow().start === props.name} fallback={<button type="button" class="link" onClick={() => props.builder.set('/start', props.name)}>{t('flowPanel.startHere')}</button>}>
          <span class="node-start">{t('flowPanel.startBadge')}</span>
        </Show>
        <span class="spacer" />
        <button type="button" onClick={() => props.onDuplicate()} title={t('flowPanel.duplicateTitle')}>
          {t('flowPanel.duplicate')}
        </button>
        <button type="button" class="danger" onClick={() => props.onDelete()}>
          {t('flowPanel.delete')}
        </button>
      </div>
      <Field label={t('flowPanel.name')} pointer={base()} builder={props.builder} exact>
        <input name="state_name" value={props.name} onChange={(event) => rename(event.currentTarget.value)} />
      </Field>
      <Show when={renameError()}>
        <p class="form-error">{renameError()}</p>
      </Show>
      <SayEditor builder={props.builder} base={base()} say={state().say} />
      <WaysEditor builder={props.builder} base={base()} name={props.name} state={state()} />
      <Show when={unknown().length > 0}>
        <p class="muted" data-unknown-keys>
          {t('flowPanel.unknownKeys', { keys: unknown().join(', ') })}
        </p>
      </Show>
    </div>
  )
}
