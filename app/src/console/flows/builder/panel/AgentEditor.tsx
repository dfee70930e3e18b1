import { t } from '../../../../i18n/language.ts'
import { For, Show } from 'solid-js'
import { isObject, type Json, objectsIn } from '../model/json.ts'
import { type Builder, Field, GoTo, moved, RowTools, StateSelect, TemplateField, liveObjectAt, positions } from './fields.tsx'

/** An LLM agent state: instructions, the MCP tools it may use, its exits (with what they capture), its limits. */
export function AgentEditor(props: { builder: Builder; base: string; agent: unknown }) {
  const agent = () => (isObject(props.agent) ? props.agent : {})
  const exits = () => objectsIn(agent().exits).map(({ value }) => value)
  const tools = () => objectsIn(agent().tools).map(({ value }) => value)
  const setExits = (next: Json[]) => props.builder.set(`${props.base}/exits`, next)
  const number = (key: string, label: string, hint: string) => (
    <Field label={label} pointer={`${props.base}/${key}`} builder={props.builder} hint={hint}>
      <input type="number" value={agent()[key] === undefined ? '' : String(agent()[key])} onChange={(event) => props.builder.set(`${props.base}/${key}`, event.currentTarget.value === '' ? undefined : Number(event.currentTarget.value))} />
    </Field>
  )
  const toggleTool = (id: string, on: boolean) => {
    const kept = tools().filter((tool) => tool.integration_id !== id)
    const next = on ? [...tools(), { integration_id: id }] : kept
    props.builder.set(`${props.base}/tools`, next.length > 0 ? next : undefined)
  }
  return (
    <div class="agent-editor">
      <Field label={t('flowPanel.instructions')} pointer={`${props.base}/instructions`} builder={props.builder}>
        <TemplateField label={t('flowPanel.instructions')} multiline value={agent().instructions} builder={props.builder} onInput={(text) => props.builder.set(`${props.base}/instructions`, text, `${props.base}/instructions`)} />
      </Field>
      <Field label={t('flowPanel.tools')} pointer={`${props.base}/tools`} builder={props.builder} exact={false}>
        <span class="tool-list">
          <For each={props.builder.mcpIntegrations()} fallback={<span class="muted">{t('flowPanel.noTools')}</span>}>
            {(server) => (
              <label class="day">
                <input type="checkbox" checked={tools().some((tool) => tool.integration_id === server.id)} onChange={(event) => toggleTool(server.id, event.currentTarget.checked)} />
                {server.name}
              </label>
            )}
          </For>
        </span>
      </Field>
      <h4>{t('flowPanel.exits')}</h4>
      <p class="hint">{t('flowPanel.exitsHint')}</p>
      <For each={positions(exits())}>
        {(position) => {
          const exit = liveObjectAt(exits, position)
          const index = () => position
          const at = () => `${props.base}/exits/${index()}`
          const captured = () => (Array.isArray(exit.capture) ? (exit.capture as string[]) : [])
          return (
            <div class="way-row" data-way={`agent/exits/${index()}`}>
              <div class="row">
                <Field label={t('flowPanel.when')} pointer={`${at()}/when`} builder={props.builder}>
                  <input value={String(exit.when ?? '')} onInput={(event) => props.builder.set(`${at()}/when`, event.currentTarget.value, `${at()}/when`)} />
                </Field>
                <RowTools what="exit" index={index()} count={exits().length} move={(from, to) => setExits(moved(exits(), from, to))} remove={() => setExits(exits().filter((_, i) => i !== index()))} />
              </div>
              <GoTo at={at()} to={exit.to} builder={props.builder} />
              <Show when={Object.keys(props.builder.variables()).length > 0}>
                <Field label={t('flowPanel.fills')} pointer={`${at()}/capture`} builder={props.builder} exact={false}>
                  <span class="tool-list">
                    <For each={Object.keys(props.builder.variables())}>
                      {(name) => (
                        <label class="day">
                          <input
                            type="checkbox"
                            checked={captured().includes(name)}
                            onChange={(event) => {
                              const next = event.currentTarget.checked ? [...captured(), name] : captured().filter((n) => n !== name)
                              props.builder.set(`${at()}/capture`, next.length > 0 ? next : undefined)
                            }}
                          />
                          {name}
                        </label>
                      )}
                    </For>
                  </span>
                </Field>
              </Show>
            </div>
          )
        }}
      </For>
      <button type="button" onClick={() => setExits([...exits(), { when: '' }])}>
        {t('flowPanel.addExit')}
      </button>
      <Field label={t('flowPanel.onError')} pointer={`${props.base}/on_error`} builder={props.builder} hint={t('flowPanel.onErrorHint')}>
        <StateSelect value={agent().on_error} none={t('flowPanel.onErrorNone')} builder={props.builder} onChange={(to) => props.builder.set(`${props.base}/on_error`, to)} />
      </Field>
      <details class="agent-limits">
        <summary>{t('flowPanel.limits')}</summary>
        <Field label={t('flowPanel.model')} pointer={`${props.base}/model`} builder={props.builder} hint={t('flowPanel.modelHint')}>
          <input value={String(agent().model ?? '')} onInput={(event) => props.builder.set(`${props.base}/model`, event.currentTarget.value || undefined, `${props.base}/model`)} />
        </Field>
        {number('temperature', t('flowPanel.temperature'), t('flowPanel.temperatureHint'))}
        {number('max_steps', t('flowPanel.maxSteps'), t('flowPanel.maxStepsHint'))}
        {number('history', t('flowPanel.history'), t('flowPanel.historyHint'))}
        {number('max_turns', t('flowPanel.maxTurns'), t('flowPanel.maxTurnsHint'))}
        <Show when={agent().max_turns !== undefined}>
          <Field label={t('flowPanel.onLimit')} pointer={`${props.base}/on_limit`} builder={props.builder}>
            <StateSelect value={agent().on_limit} builder={props.builder} onChange={(to) => props.builder.set(`${props.base}/on_limit`, to)} />
          </Field>
        </Show>
      </details>
    </div>
  )
}
