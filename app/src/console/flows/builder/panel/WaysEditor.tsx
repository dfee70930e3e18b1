import { t } from '../../../../i18n/language.ts'
import { For, Match, Show, Switch, createSignal } from 'solid-js'
import { WAY_OUT_KEYS } from '../model/edits.ts'
import { isObject, type Json, objectsIn, writeAt } from '../model/json.ts'
import { AgentEditor } from './AgentEditor.tsx'
import { BranchEditor } from './BranchEditor.tsx'
import { addedBeforeCatchAll, type Builder, Field, GoTo, moved, RowTools, StateSelect, TemplateField, liveObjectAt, positions } from './fields.tsx'

type WayOut = (typeof WAY_OUT_KEYS)[number]

const WAY_LABELS = {
  next: 'flowPanel.way.next',
  on: 'flowPanel.way.on',
  capture: 'flowPanel.way.capture',
  branch: 'flowPanel.way.branch',
  handoff: 'flowPanel.way.handoff',
  agent: 'flowPanel.way.agent',
  end: 'flowPanel.way.end',
} as const satisfies Record<WayOut, string>

export function wayOutOf(state: Json): WayOut | null {
  if (state.capture !== undefined) return 'capture'
  return WAY_OUT_KEYS.find((key) => state[key] !== undefined) ?? null
}

/** A state's way out changed: the old one's keys go, the new one's come with a start to finish; messages and unknown keys stay. */
function switched(state: Json, way: WayOut, self: string): Json {
  const next: Json = {}
  for (const [key, value] of Object.entries(state)) if (!(WAY_OUT_KEYS as readonly string[]).includes(key)) next[key] = value
  switch (way) {
    case 'next':
      return { ...next, next: self }
    case 'on':
      return { ...next, on: [{ to: self }] }
    case 'capture':
      return { ...next, capture: { var: '', as: 'text' } }
    case 'branch':
      return { ...next, branch: [{}] }
    case 'handoff':
      return { ...next, handoff: {} }
    case 'agent':
      return { ...next, agent: { instructions: t('flowPanel.agentStarter'), exits: [{ when: t('flowPanel.agentStarterExit') }] } }
    case 'end':
      return { ...next, end: true }
  }
}

/** How a state goes on: the form for its way out, with the states it can lead to offered. */
export function WaysEditor(props: { builder: Builder; base: string; name: string; state: Json }) {
  const way = () => wayOutOf(props.state)
  return (
    <section class="panel-section" aria-label={t('flowPanel.wayOut')}>
      <h3>{t('flowPanel.then')}</h3>
      <Field label={t('flowPanel.wayOut')} pointer={`${props.base}/(way out)`} builder={props.builder} exact>
        <select value={way() ?? ''} onChange={(event) => props.builder.set(props.base, switched(props.state, event.currentTarget.value as WayOut, props.name))}>
          <Show when={way() === null}>
            <option value="">{t('flowPanel.noneYet')}</option>
          </Show>
          <For each={[...WAY_OUT_KEYS]}>{(key) => <option value={key} selected={key === way()}>{t(WAY_LABELS[key])}</option>}</For>
        </select>
      </Field>
      <Switch>
        <Match when={way() === 'next'}>
          <Field label={t('flowPanel.goTo')} pointer={`${props.base}/next`} builder={props.builder}>
            <StateSelect value={props.state.next} builder={props.builder} onChange={(to) => props.builder.set(`${props.base}/next`, to)} />
          </Field>
        </Match>
        <Match when={way() === 'on'}>
          <Transitions builder={props.builder} base={props.base} state={props.state} />
        </Match>
        <Match when={way() === 'capture'}>
          <CaptureFields builder={props.builder} base={props.base} name={props.name} state={props.state} />
        </Match>
        <Match when={way() === 'branch'}>
          <BranchEditor builder={props.builder} base={props.base} branch={props.state.branch} />
        </Match>
        <Match when={way() === 'handoff'}>
          <Field label={t('flowPanel.handoffText')} pointer={`${props.base}/handoff/text`} builder={props.builder}>
            <TemplateField label={t('flowPanel.handoffField')} value={isObject(props.state.handoff) ? props.state.handoff.text : ''} builder={props.builder} onInput={(text) => props.builder.set(`${props.base}/handoff/text`, text || undefined, `${props.base}/handoff/text`)} />
          </Field>
          <Field label={t('flowPanel.resume')} pointer={`${props.base}/handoff/resume`} builder={props.builder}>
            <StateSelect value={isObject(props.state.handoff) ? props.state.handoff.resume : undefined} none={t('flowPanel.theStart')} builder={props.builder} onChange={(to) => props.builder.set(`${props.base}/handoff/resume`, to)} />
          </Field>
        </Match>
        <Match when={way() === 'agent'}>
          <AgentEditor builder={props.builder} base={`${props.base}/agent`} agent={props.state.agent} />
        </Match>
        <Match when={way() === 'end'}>
          <p class="muted">{t('flowPanel.ends')}</p>
        </Match>
      </Switch>
    </section>
  )
}

type Condition = 'button' | 'row' | 'equals' | 'match' | 'always'
const conditionOf = (transition: Json): Condition => (['button', 'row', 'equals', 'match'] as const).find((key) => key in transition) ?? 'always'

/** Replies the state's messages offer, for a button or row transition to pick. */
function offered(state: Json, kind: 'button' | 'row'): { id: string; title: string }[] {
  const found: { id: string; title: string }[] = []
  for (const { value: message } of objectsIn(state.say)) {
    if (kind === 'button') for (const { value } of objectsIn(message.buttons)) found.push({ id: String(value.id ?? ''), title: String(value.title ?? value.id ?? '') })
    else for (const { value: section } of objectsIn(message.sections)) for (const { value } of objectsIn(section.rows)) found.push({ id: String(value.id ?? ''), title: String(value.title ?? value.id ?? '') })
  }
  return found
}

function Transitions(props: { builder: Builder; base: string; state: Json }) {
  const list = () => objectsIn(props.state.on).map(({ value }) => value)
  const setList = (next: Json[]) => props.builder.set(`${props.base}/on`, next)
  const retype = (transition: Json, kind: Condition): Json => {
    const to = transition.to
    if (kind === 'always') return { to }
    const first = kind === 'button' || kind === 'row' ? (offered(props.state, kind)[0]?.id ?? '') : ''
    return { [kind]: first, to }
  }
  return (
    <div class="transitions">
      <p class="hint">{t('flowPanel.transitionsHint')}</p>
      <For each={positions(list())}>
        {(position) => {
          const transition = liveObjectAt(list, position)
          const index = () => position
          const at = () => `${props.base}/on/${index()}`
          const kind = () => conditionOf(transition)
          return (
            <div class="way-row" data-way={`on/${index()}`}>
              <div class="row">
                <select aria-label={t('flowPanel.when')} value={kind()} onChange={(event) => props.builder.set(at(), retype(transition, event.currentTarget.value as Condition))}>
                  <option value="button">{t('flowPanel.on.button')}</option>
                  <option value="row">{t('flowPanel.on.row')}</option>
                  <option value="equals">{t('flowPanel.on.equals')}</option>
                  <option value="match">{t('flowPanel.on.match')}</option>
                  <option value="always">{t('flowPanel.on.always')}</option>
                </select>
                <RowTools what="transition" index={index()} count={list().length} move={(from, to) => setList(moved(list(), from, to))} remove={() => setList(list().filter((_, i) => i !== index()))} />
              </div>
              <Switch>
                <Match when={kind() === 'button' || kind() === 'row'}>
                  <Field label={kind() === 'button' ? t('flowPanel.button') : t('flowPanel.row')} pointer={`${at()}/${kind()}`} builder={props.builder}>
                    <select value={String(transition[kind()] ?? '')} onChange={(event) => props.builder.set(`${at()}/${kind()}`, event.currentTarget.value)}>
                      <For each={offered(props.state, kind() as 'button' | 'row')}>{(choice) => <option value={choice.id} selected={choice.id === transition[kind()]}>{choice.title}</option>}</For>
                      <Show when={!offered(props.state, kind() as 'button' | 'row').some((choice) => choice.id === transition[kind()])}>
                        <option value={String(transition[kind()] ?? '')}>{t('flowPanel.notOffered', { id: String(transition[kind()] ?? '') })}</option>
                      </Show>
                    </select>
                  </Field>
                </Match>
                <Match when={kind() === 'equals' || kind() === 'match'}>
                  <Field label={kind() === 'equals' ? t('flowPanel.equalsText') : t('flowPanel.pattern')} pointer={`${at()}/${kind()}`} builder={props.builder}>
                    <input value={String(transition[kind()] ?? '')} onInput={(event) => props.builder.set(`${at()}/${kind()}`, event.currentTarget.value, `${at()}/${kind()}`)} />
                  </Field>
                </Match>
              </Switch>
              <GoTo at={at()} to={transition.to} builder={props.builder} />
            </div>
          )
        }}
      </For>
      <button
        type="button"
        onClick={() => setList(addedBeforeCatchAll(list(), (transition) => conditionOf(transition) === 'always', { equals: '' }))}
      >
        {t('flowPanel.addTransition')}
      </button>
    </div>
  )
}

function CaptureFields(props: { builder: Builder; base: string; name: string; state: Json }) {
  const capture = () => (isObject(props.state.capture) ? props.state.capture : {})
  const at = `${props.base}/capture`
  const [naming, setNaming] = createSignal(false)
  const declare = (name: string) => {
    const flow = props.builder.flow()
    const variables = isObject(flow.variables) ? { ...flow.variables } : {}
    variables[name] ??= { type: capture().as === 'number' ? 'number' : 'string' }
    props.builder.apply(writeAt({ ...flow, variables }, `${at}/var`, name))
    setNaming(false)
  }
  return (
    <>
      <Field label={t('flowPanel.expect')} pointer={`${at}/as`} builder={props.builder}>
        <select value={String(capture().as ?? 'text')} onChange={(event) => props.builder.set(`${at}/as`, event.currentTarget.value)}>
          <option value="text">{t('flowPanel.as.text')}</option>
          <option value="email">{t('flowPanel.as.email')}</option>
          <option value="phone">{t('flowPanel.as.phone')}</option>
          <option value="number">{t('flowPanel.as.number')}</option>
        </select>
      </Field>
      <Field label={t('flowPanel.storeIn')} pointer={`${at}/var`} builder={props.builder}>
        <span class="row">
          <select value={String(capture().var ?? '')} onChange={(event) => props.builder.set(`${at}/var`, event.currentTarget.value)}>
            <option value="">{t('flowPanel.chooseVariable')}</option>
            <For each={Object.keys(props.builder.variables())}>{(name) => <option value={name} selected={name === capture().var}>{name}</option>}</For>
          </select>
          <button type="button" onClick={() => setNaming(true)}>
            {t('flowPanel.newVariable')}
          </button>
        </span>
      </Field>
      <Show when={naming()}>
        <form
          class="row"
          onSubmit={(event) => {
            event.preventDefault()
            const name = String(new FormData(event.currentTarget).get('variable') ?? '').trim()
            if (name) declare(name)
          }}
        >
          <input name="variable" aria-label={t('flowPanel.newVariableName')} placeholder={t('flowPanel.newVariableNamePlaceholder')} pattern="[A-Za-z_][A-Za-z0-9_]{0,63}" required />
          <button type="submit">{t('flowPanel.declare')}</button>
        </form>
      </Show>
      <Field label={t('flowPanel.retry')} pointer={`${at}/retry`} builder={props.builder}>
        <TemplateField label={t('flowPanel.retryField')} value={capture().retry} builder={props.builder} onInput={(text) => props.builder.set(`${at}/retry`, text || undefined, `${at}/retry`)} />
      </Field>
      <Field label={t('flowPanel.thenGoTo')} pointer={`${props.base}/next`} builder={props.builder}>
        <StateSelect value={props.state.next} builder={props.builder} onChange={(to) => props.builder.set(`${props.base}/next`, to)} />
      </Field>
    </>
  )
}
