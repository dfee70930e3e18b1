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
      <Field label="Instructions" pointer={`${props.base}/instructions`} builder={props.builder}>
        <TemplateField label="Instructions" multiline value={agent().instructions} builder={props.builder} onInput={(text) => props.builder.set(`${props.base}/instructions`, text, `${props.base}/instructions`)} />
      </Field>
      <Field label="Tools (MCP servers of this chatbot)" pointer={`${props.base}/tools`} builder={props.builder} exact={false}>
        <span class="tool-list">
          <For each={props.builder.mcpIntegrations()} fallback={<span class="muted">No MCP server yet: add one under Integrations.</span>}>
            {(server) => (
              <label class="day">
                <input type="checkbox" checked={tools().some((tool) => tool.integration_id === server.id)} onChange={(event) => toggleTool(server.id, event.currentTarget.checked)} />
                {server.name}
              </label>
            )}
          </For>
        </span>
      </Field>
      <h4>Exits</h4>
      <p class="hint">The agent answers until it reports one of these; then the flow goes where the exit says.</p>
      <For each={positions(exits())}>
        {(position) => {
          const exit = liveObjectAt(exits, position)
          const index = () => position
          const at = () => `${props.base}/exits/${index()}`
          const captured = () => (Array.isArray(exit.capture) ? (exit.capture as string[]) : [])
          return (
            <div class="way-row" data-way={`agent/exits/${index()}`}>
              <div class="row">
                <Field label="When" pointer={`${at()}/when`} builder={props.builder}>
                  <input value={String(exit.when ?? '')} onInput={(event) => props.builder.set(`${at()}/when`, event.currentTarget.value, `${at()}/when`)} />
                </Field>
                <RowTools what="exit" index={index()} count={exits().length} move={(from, to) => setExits(moved(exits(), from, to))} remove={() => setExits(exits().filter((_, i) => i !== index()))} />
              </div>
              <GoTo at={at()} to={exit.to} builder={props.builder} />
              <Show when={Object.keys(props.builder.variables()).length > 0}>
                <Field label="Fills the variables" pointer={`${at()}/capture`} builder={props.builder} exact={false}>
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
        + Exit
      </button>
      <Field label="When the model fails, go to" pointer={`${props.base}/on_error`} builder={props.builder} hint="Without it the bot apologises and a person takes over.">
        <StateSelect value={agent().on_error} none="apologise and hand off" builder={props.builder} onChange={(to) => props.builder.set(`${props.base}/on_error`, to)} />
      </Field>
      <details class="agent-limits">
        <summary>Model and limits</summary>
        <Field label="Model (optional)" pointer={`${props.base}/model`} builder={props.builder} hint="Overrides the chatbot's model in this state.">
          <input value={String(agent().model ?? '')} onInput={(event) => props.builder.set(`${props.base}/model`, event.currentTarget.value || undefined, `${props.base}/model`)} />
        </Field>
        {number('temperature', 'Temperature (0 to 2)', 'Overrides the chatbot\'s temperature.')}
        {number('max_steps', 'Rounds per message (1 to 32)', 'Model and tool rounds for one visitor message; default 8.')}
        {number('history', 'Messages given (0 to 200)', 'Past messages the model reads; default 20.')}
        {number('max_turns', 'Messages answered before the limit', 'Then the flow goes to the turn-limit state.')}
        <Show when={agent().max_turns !== undefined}>
          <Field label="After the limit, go to" pointer={`${props.base}/on_limit`} builder={props.builder}>
            <StateSelect value={agent().on_limit} builder={props.builder} onChange={(to) => props.builder.set(`${props.base}/on_limit`, to)} />
          </Field>
        </Show>
      </details>
    </div>
  )
}
