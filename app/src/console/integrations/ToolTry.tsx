import { createSignal, For, Match, onMount, Show, Switch } from 'solid-js'
import { consoleApi, type McpTool } from '../console-api.ts'
import { createAction, ErrorLine, intoView } from '../parts.tsx'
import { jsonArguments, type ToolField, toolArguments, toolFields } from './tool-form.ts'
import { t } from '../../i18n/language.ts'

/**
 * "Try it": one call of a tool with arguments typed in a form drawn from its input schema
 * (JSON for what the form cannot draw), the answer shown as MCP content blocks.
 */
export function ToolTry(props: { botId: string; serverId: string; tool: McpTool }) {
  const fields = toolFields(props.tool.input_schema)
  const [values, setValues] = createSignal<Record<string, string>>(Object.fromEntries((fields ?? []).map((field) => [field.name, field.initial])))
  const [json, setJson] = createSignal('{}')
  const [result, setResult] = createSignal('')
  const { error, setError, act } = createAction()
  const set = (name: string, text: string) => setValues({ ...values(), [name]: text })
  // Opened below the tool list, and answered below the form: each brought into view.
  let formElement: HTMLFormElement | undefined
  onMount(() => formElement?.scrollIntoView({ block: 'nearest' }))
  const call = (event: SubmitEvent) => {
    event.preventDefault()
    setResult('')
    const built = fields ? toolArguments(fields, values()) : jsonArguments(json())
    if (!built.ok) return setError(built.error)
    void act(async () => {
      const answer = await consoleApi.callTool(props.botId, props.serverId, props.tool.name, built.arguments)
      // Text blocks read as text; anything else (images, resources) as the blocks themselves.
      const texts = answer.content.every((block) => block.type === 'text') ? answer.content.map((block) => String(block.text)).join('\n') : JSON.stringify(answer.content, null, 2)
      setResult(texts + (answer.is_error ? `\n${t('tool.reportedError')}` : ''))
    })
  }
  return (
    <form ref={formElement} class="grid-stack tool-try" onSubmit={call} data-trying={props.tool.name}>
      <h3>{t('tool.try', { name: props.tool.title ?? props.tool.name })}</h3>
      <Show
        when={fields}
        fallback={
          <label class="field">
            {t('tool.json')} <span class="limit">{t('tool.noSchema')}</span>
            <textarea name="tool_arguments" rows={4} value={json()} onInput={(e) => setJson(e.currentTarget.value)} />
          </label>
        }
      >
        <For each={fields} fallback={<p class="muted">{t('tool.noArguments')}</p>}>
          {(field) => <FieldInput field={field} value={values()[field.name] ?? ''} onInput={(text) => set(field.name, text)} />}
        </For>
      </Show>
      <ErrorLine error={error()} />
      <div class="actions">
        <button type="submit" class="primary">
          {t('tool.call', { name: props.tool.name })}
        </button>
      </div>
      <Show when={result()}>
        <pre ref={intoView} class="snippet" data-tool-result>
          {result()}
        </pre>
      </Show>
    </form>
  )
}


function FieldInput(props: { field: ToolField; value: string; onInput: (text: string) => void }) {
  const id = `tool-arg-${props.field.name}`
  const label = (
    <>
      {props.field.name}
      {props.field.required ? ' *' : ''} <span class="limit">{[t(`tool.kind.${props.field.kind}`), props.field.description].filter(Boolean).join(' · ')}</span>
    </>
  )
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <Switch>
        <Match when={props.field.kind === 'boolean'}>
          <select id={id} name={id} value={props.value} onChange={(e) => props.onInput(e.currentTarget.value)} required={props.field.required}>
            <Show when={!props.field.required}>
              <option value="">{t('tool.notSent')}</option>
            </Show>
            <option value="true">{t('tool.true')}</option>
            <option value="false">{t('tool.false')}</option>
          </select>
        </Match>
        <Match when={props.field.kind === 'enum'}>
          <select id={id} name={id} value={props.value} onChange={(e) => props.onInput(e.currentTarget.value)} required={props.field.required}>
            <option value="">{props.field.required ? t('tool.chooseOne') : t('tool.notSent')}</option>
            <For each={props.field.options}>{(option) => <option value={String(option)}>{String(option)}</option>}</For>
          </select>
        </Match>
        <Match when={props.field.kind === 'json'}>
          <textarea id={id} name={id} rows={3} value={props.value} onInput={(e) => props.onInput(e.currentTarget.value)} required={props.field.required} />
        </Match>
        <Match when={true}>
          <input
            id={id}
            name={id}
            inputMode={props.field.kind === 'string' ? undefined : 'decimal'}
            value={props.value}
            onInput={(e) => props.onInput(e.currentTarget.value)}
            required={props.field.required}
          />
        </Match>
      </Switch>
    </div>
  )
}
