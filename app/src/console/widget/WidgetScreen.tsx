import { useParams } from '@solidjs/router'
import { createEffect, createMemo, createResource, createSignal, For, on, onCleanup, Show } from 'solid-js'
import { consoleApi, type WebIntegration } from '../console-api.ts'
import { BotTabs, CopyButton, createAction, ErrorLine } from '../parts.tsx'
import { PreviewProblem, previewProblems } from './PreviewProblem.tsx'
import { LeaveUnsaved } from '../LeaveUnsaved.tsx'
import { ContrastNote } from './ContrastNote.tsx'
import { checkField, embedSnippet, type FieldSpec, type FormValues, formValues, identitySnippet, patchOf, shownFields, unsavedFields, widgetConfigOf } from './widget-form.ts'
import { t } from '../../i18n/language.ts'

const FRAMES = { desktop: { width: 900, height: 640 }, phone: { width: 375, height: 667 } } as const

/**
 * The web widget: every setting with its limits checked as it is typed, a live preview that
 * is the real widget script drawing the unsaved settings (the preview page answers the
 * widget's configuration request with them), and the snippets to copy.
 */
export default function WidgetScreen() {
  const params = useParams<{ botId: string }>()
  const [bot] = createResource(() => params.botId, consoleApi.chatbot)
  const [web, { mutate, refetch }] = createResource(() => params.botId, (id) => consoleApi.channelIfAny(id, 'web', consoleApi.web))
  const [values, setValues] = createSignal<FormValues>({})
  const [saved, setSaved] = createSignal('')
  const { error, act } = createAction()
  const [frame, setFrame] = createSignal<keyof typeof FRAMES>('desktop')
  createEffect(
    on(web, (integration) => {
      if (integration) setValues(formValues(integration))
    }),
  )
  const fields = createMemo(() => shownFields(web()?.config.widget_config ?? {}))
  const problems = createMemo(() => Object.fromEntries(fields().map((spec) => [spec.key, checkField(spec, values()[spec.key] ?? '')])))
  const patch = createMemo(() => patchOf(values(), fields()))
  const unsaved = createMemo(() => {
    const integration = web()
    return integration ? unsavedFields(values(), integration).length > 0 : false
  })
  let frameElement: HTMLIFrameElement | undefined
  const problem = previewProblems(() => frameElement)
  const set = (key: string, text: string) => {
    setSaved('')
    setValues({ ...values(), [key]: text })
  }

  // The preview reloads a moment after the typing stops, with the settings as typed (valid ones only).
  const [previewUrl, setPreviewUrl] = createSignal('')
  let timer: ReturnType<typeof setTimeout> | undefined
  let generation = 0
  createEffect(() => {
    const integration = web()
    if (!integration) return
    const settings = {
      widget_key: integration.config.widget_key,
      name: bot()?.name ?? '',
      greeting_message: (values().greeting_message ?? '').trim() || null,
      widget_config: { ...integration.config.widget_config, ...widgetConfigOf(values(), fields()) },
    }
    clearTimeout(timer)
    timer = setTimeout(() => setPreviewUrl(`/widget/v1/preview?v=${++generation}#${encodeURIComponent(JSON.stringify(settings))}`), 250)
  })
  onCleanup(() => clearTimeout(timer))

  const save = (event: SubmitEvent) => {
    event.preventDefault()
    const body = patch()
    if (!body) return
    void act(async () => {
      mutate(await consoleApi.updateWeb(params.botId, body))
      setSaved(t('widget.saved'))
    })
  }
  const create = () =>
    act(async () => {
      await consoleApi.createWeb(params.botId, { name: t('widget.defaultName') })
      await refetch()
    })
  const switchOn = () =>
    act(async () => {
      // The stored integration changes, so the preview reloads; the notice goes once it has connected.
      mutate(await consoleApi.updateWeb(params.botId, { is_active: true }))
    })

  return (
    <>
      <BotTabs botId={params.botId} name={bot()?.name} />
      <h1>{t('widget.title')}</h1>
      <LeaveUnsaved when={unsaved} />
      <ErrorLine error={error()} />
      <Show when={web() !== undefined} fallback={<p class="loading">{t('console.loading')}</p>}>
        <Show
          when={web()}
          fallback={
            <section class="card">
              <p>{t('widget.none')}</p>
              <button type="button" class="primary" onClick={() => void create()}>
                {t('widget.add')}
              </button>
            </section>
          }
        >
          {(integration) => (
            <div class="grid-2 widget-screen">
              <form class="card widget-form" onSubmit={save} novalidate>
                <h2>{t('widget.settings')}</h2>
                <For each={fields()}>{(spec) => <Field spec={spec} value={values()[spec.key] ?? ''} problem={problems()[spec.key] ?? null} onInput={(text) => set(spec.key, text)} stored={integration()} background={values().background_color ?? ''} />}</For>
                <div class="actions">
                  <button type="submit" class="primary" disabled={patch() === null}>
                    {t('widget.save')}
                  </button>
                  <Show when={patch() === null}>
                    <span class="form-error">{t('widget.fixFields')}</span>
                  </Show>
                </div>
                <Show when={saved()}>
                  {/* Below the Save button at the end of a long form: brought into view, not left under the fold. */}
                  <p role="status" ref={(line) => requestAnimationFrame(() => line.scrollIntoView({ block: 'nearest' }))}>
                    {saved()}
                  </p>
                </Show>
              </form>
              <div class="grid-stack">
                <section class="card">
                  <div class="actions">
                    <h2>{t('widget.preview')}</h2>
                    <span class="spacer" />
                    <button type="button" aria-pressed={frame() === 'desktop'} onClick={() => setFrame('desktop')}>
                      {t('widget.desktop')}
                    </button>
                    <button type="button" aria-pressed={frame() === 'phone'} onClick={() => setFrame('phone')}>
                      {t('widget.phone')}
                    </button>
                  </div>
                  <p class="muted">{t('widget.previewIntro')}</p>
                  <PreviewProblem problem={problem.shown()} onSwitchOn={() => void switchOn()} />
                  <div class="preview-box">
                    <Show when={previewUrl()}>
                      <iframe
                        ref={frameElement}
                        class="preview-frame"
                        title={t('widget.previewFrame')}
                        src={previewUrl()}
                        width={FRAMES[frame()].width}
                        height={FRAMES[frame()].height}
                      />
                    </Show>
                  </div>
                </section>
                <section class="card">
                  <h2>{t('widget.embed')}</h2>
                  <p class="muted">{t('widget.embedIntro', { tag: '</body>' })}</p>
                  <pre class="snippet" data-embed-snippet>
                    {embedSnippet(window.location.origin, integration().config.widget_key)}
                  </pre>
                  <CopyButton text={() => embedSnippet(window.location.origin, integration().config.widget_key)} label={t('widget.copyEmbed')} />
                  <h2>{t('widget.identity')}</h2>
                  <p class="muted">{t('widget.identityIntro')}</p>
                  <pre class="snippet">{identitySnippet()}</pre>
                  <CopyButton text={identitySnippet} label={t('widget.copyIdentity')} />
                </section>
              </div>
            </div>
          )}
        </Show>
      </Show>
    </>
  )
}

function Field(props: { spec: FieldSpec; value: string; problem: string | null; onInput: (text: string) => void; stored: WebIntegration; background: string }) {
  const id = () => `field-${props.spec.key}`
  const common = () => ({
    id: id(),
    name: props.spec.key,
    'aria-invalid': props.problem !== null,
    'aria-describedby': `${id()}-limit`,
  })
  return (
    <div class="field">
      <label for={id()}>{props.spec.label}</label>
      {props.spec.kind === 'choice' ? (
        <select {...common()} value={props.value} onChange={(e) => props.onInput(e.currentTarget.value)}>
          <For each={props.spec.choices}>{(choice) => <option value={choice}>{props.spec.choiceLabels?.[choice] ?? (choice === '' ? t('widget.noneChoice') : choice)}</option>}</For>
        </select>
      ) : props.spec.kind === 'paths' || props.spec.kind === 'domains' || props.spec.kind === 'greeting' ? (
        <textarea {...common()} rows={props.spec.kind === 'greeting' ? 2 : 3} value={props.value} onInput={(e) => props.onInput(e.currentTarget.value)} />
      ) : (
        <div class="actions">
          <input
            {...common()}
            type={props.spec.kind === 'secret' ? 'password' : 'text'}
            inputMode={props.spec.kind === 'number' ? 'decimal' : undefined}
            autocomplete="off"
            placeholder={props.spec.kind === 'secret' && props.stored.config.identity_secret ? t('widget.secretSet', { hint: props.stored.config.identity_secret }) : ''}
            value={props.value}
            onInput={(e) => props.onInput(e.currentTarget.value)}
          />
          <Show when={(props.spec.kind === 'color' || props.spec.kind === 'optional-color') && props.problem === null && props.value}>
            <input type="color" aria-label={t('widget.picker', { label: props.spec.label })} value={expandHex(props.value)} onInput={(e) => props.onInput(e.currentTarget.value)} />
          </Show>
        </div>
      )}
      <span class="limit" id={`${id()}-limit`}>
        {props.spec.limit}
      </span>
      <Show when={props.spec.key === 'primary_color' && props.problem === null}>
        <ContrastNote primary={props.value} background={props.background} />
      </Show>
      <Show when={props.problem}>
        <span class="field-error" role="alert" data-field-error={props.spec.key}>
          {props.problem}
        </span>
      </Show>
    </div>
  )
}

function expandHex(value: string): string {
  const hex = value.trim()
  return hex.length === 4 ? `#${hex[1]}${hex[1]}${hex[2]}${hex[2]}${hex[3]}${hex[3]}` : hex
}
