import { t } from '../../../../i18n/language.ts'
import { For } from 'solid-js'
import { isObject, type Json, pointerOf } from '../model/json.ts'
import { issuesAt } from '../model/issues.ts'
import { type Builder, Field, StateSelect, TemplateField } from './fields.tsx'

/** With no state selected: the flow's start, its fallback reply and its variables. */
export function FlowSettings(props: { builder: Builder }) {
  const flow = () => props.builder.flow()
  const variables = () => props.builder.variables()
  const setVariables = (next: Record<string, Json>) => props.builder.set('/variables', Object.keys(next).length > 0 ? next : undefined)
  let newName!: HTMLInputElement
  return (
    <div class="flow-settings">
      <h3>{t('flowPanel.flow')}</h3>
      <p class="muted">{t('flowPanel.flowHint')}</p>
      <Field label={t('flowPanel.start')} pointer="/start" builder={props.builder}>
        <StateSelect value={flow().start} builder={props.builder} onChange={(to) => props.builder.set('/start', to)} />
      </Field>
      <Field label={t('flowPanel.fallback')} pointer="/fallback" builder={props.builder} hint={t('flowPanel.fallbackHint')}>
        <TemplateField label={t('flowPanel.fallbackField')} value={flow().fallback} builder={props.builder} onInput={(text) => props.builder.set('/fallback', text || undefined, '/fallback')} />
      </Field>
      <h4>{t('flowPanel.variables')}</h4>
      <For each={Object.entries(variables())}>
        {([name, declaration]) => (
          <div class="row variable" data-variable={name}>
            <code>{name}</code>
            <select aria-label={t('flowPanel.typeOf', { name })} value={String(declaration.type ?? 'string')} onChange={(event) => props.builder.set(`${pointerOf('variables', name)}/type`, event.currentTarget.value)}>
              <option value="string">{t('flowPanel.type.string')}</option>
              <option value="number">{t('flowPanel.type.number')}</option>
              <option value="boolean">{t('flowPanel.type.boolean')}</option>
            </select>
            <button type="button" class="icon" aria-label={t('flowPanel.removeVariable', { name })} onClick={() => setVariables(Object.fromEntries(Object.entries(variables()).filter(([n]) => n !== name)))}>
              ✕
            </button>
            <For each={issuesAt(props.builder.issues(), pointerOf('variables', name))}>{(issue) => <p class={`field-issue issue-${issue.level}`}>{issue.message}</p>}</For>
          </div>
        )}
      </For>
      <form
        class="row"
        onSubmit={(event) => {
          event.preventDefault()
          const name = newName.value.trim()
          if (!name || Object.hasOwn(variables(), name)) return
          setVariables({ ...variables(), [name]: { type: 'string' } })
          newName.value = ''
        }}
      >
        <input ref={newName} aria-label={t('flowPanel.newVariable')} placeholder={t('flowPanel.newVariablePlaceholder')} />
        <button type="submit">{t('flowPanel.declare')}</button>
      </form>
      <For each={issuesAt(props.builder.issues(), '', false).filter((issue) => !issue.path.startsWith('/states/') && !issue.path.startsWith('/variables/') && issue.path !== '/start' && issue.path !== '/fallback')}>
        {(issue) => <p class={`field-issue issue-${issue.level}`}>{issue.message} <code>{issue.path || '/'}</code></p>}
      </For>
    </div>
  )
}
