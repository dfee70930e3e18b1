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
      <h3>The flow</h3>
      <p class="muted">Select a state to edit it, or add one from the palette.</p>
      <Field label="Start" pointer="/start" builder={props.builder}>
        <StateSelect value={flow().start} builder={props.builder} onChange={(to) => props.builder.set('/start', to)} />
      </Field>
      <Field label="Reply to input nothing matches" pointer="/fallback" builder={props.builder} hint='Default: "Sorry, I did not understand that."'>
        <TemplateField label="Fallback" value={flow().fallback} builder={props.builder} onInput={(text) => props.builder.set('/fallback', text || undefined, '/fallback')} />
      </Field>
      <h4>Variables</h4>
      <For each={Object.entries(variables())}>
        {([name, declaration]) => (
          <div class="row variable" data-variable={name}>
            <code>{name}</code>
            <select aria-label={`Type of ${name}`} value={String(declaration.type ?? 'string')} onChange={(event) => props.builder.set(`${pointerOf('variables', name)}/type`, event.currentTarget.value)}>
              <option value="string">text</option>
              <option value="number">number</option>
              <option value="boolean">yes/no</option>
            </select>
            <button type="button" class="icon" aria-label={`Remove the variable ${name}`} onClick={() => setVariables(Object.fromEntries(Object.entries(variables()).filter(([n]) => n !== name)))}>
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
        <input ref={newName} aria-label="New variable" placeholder="new variable" />
        <button type="submit">Declare</button>
      </form>
      <For each={issuesAt(props.builder.issues(), '', false).filter((issue) => !issue.path.startsWith('/states/') && !issue.path.startsWith('/variables/') && issue.path !== '/start' && issue.path !== '/fallback')}>
        {(issue) => <p class={`field-issue issue-${issue.level}`}>{issue.message} <code>{issue.path || '/'}</code></p>}
      </For>
    </div>
  )
}
