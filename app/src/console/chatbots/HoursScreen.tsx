import { useParams } from '@solidjs/router'
import { createResource, createSignal, For, Show } from 'solid-js'
import { api } from '../../api.ts'
import { consoleApi } from '../console-api.ts'
import { BotTabs, createAction, ErrorLine } from '../parts.tsx'
import { t } from '../../i18n/language.ts'

const WEEK = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const
type Day = (typeof WEEK)[number]
type Span = { from: string; until: string }
interface Hours {
  timezone: string
  weekly: Partial<Record<Day, Span[]>>
  holidays: { date: string; name?: string }[]
  closed_text: string | null
}

const path = (botId: string) => `/chatbots/${encodeURIComponent(botId)}/business-hours`
const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'

/**
 * A chatbot's business hours (docs/team.md): the time zone, one span a day (the API takes up
 * to four), holidays one date a line, and what a handoff says outside them. Saved whole.
 */
export default function HoursScreen() {
  const params = useParams<{ botId: string }>()
  const [bot] = createResource(() => params.botId, consoleApi.chatbot)
  const [saved, { refetch }] = createResource(() => params.botId, (id) => api<{ hours: Hours | null; open_now: boolean }>('GET', path(id)))
  const [zone, setZone] = createSignal('')
  const [days, setDays] = createSignal<Partial<Record<Day, Span>>>({})
  const [holidays, setHolidays] = createSignal('')
  const [closedText, setClosedText] = createSignal('')
  const [savedNow, setSavedNow] = createSignal(false)
  const { error, act } = createAction()
  let filled = false
  const fill = (hours: Hours | null) => {
    if (filled) return
    filled = true
    setZone(hours?.timezone ?? browserZone())
    const weekly = hours?.weekly ?? Object.fromEntries(WEEK.slice(0, 5).map((day) => [day, [{ from: '09:00', until: '17:00' }]]))
    setDays(Object.fromEntries(WEEK.flatMap((day) => (weekly[day]?.[0] ? [[day, weekly[day]![0]]] : []))))
    setHolidays((hours?.holidays ?? []).map((holiday) => holiday.date).join('\n'))
    setClosedText(hours?.closed_text ?? '')
  }
  const setDay = (day: Day, span: Span | null) => setDays((current) => ({ ...Object.fromEntries(Object.entries(current).filter(([key]) => key !== day)), ...(span ? { [day]: span } : {}) }))
  const save = (event: SubmitEvent) => {
    event.preventDefault()
    setSavedNow(false)
    void act(async () => {
      const body = {
        timezone: zone().trim(),
        weekly: Object.fromEntries(Object.entries(days()).map(([day, span]) => [day, [span]])),
        holidays: holidays().split(/\s+/).filter(Boolean).map((date) => ({ date })),
        closed_text: closedText().trim() || null,
      }
      await api('PUT', path(params.botId), body)
      await refetch()
      setSavedNow(true)
    })
  }
  const remove = () =>
    act(async () => {
      await api('DELETE', path(params.botId))
      filled = false
      await refetch()
    })

  return (
    <>
      <BotTabs botId={params.botId} name={bot()?.name} />
      <h1>{t('hours.title')}</h1>
      <p class="muted">{t('hours.intro')}</p>
      <Show when={saved()} fallback={<p class="loading">{t('console.loading')}</p>}>
        {(answer) => {
          fill(answer().hours)
          return (
            <form class="card hours-form" onSubmit={save}>
              <p data-open-now={answer().open_now ? 'open' : 'closed'}>
                <strong>{answer().hours === null ? t('hours.none') : answer().open_now ? t('hours.openNow') : t('hours.closedNow')}</strong>
              </p>
              <label class="field">
                {t('hours.timezone')}
                <input name="timezone" value={zone()} onInput={(event) => setZone(event.currentTarget.value)} required maxLength={64} placeholder={browserZone()} />
              </label>
              <fieldset>
                <legend>{t('hours.weekly')}</legend>
                <For each={WEEK}>
                  {(day) => (
                    <div class="hours-day" data-day={day}>
                      <label>
                        <input type="checkbox" checked={Boolean(days()[day])} onChange={(event) => setDay(day, event.currentTarget.checked ? (days()[day] ?? { from: '09:00', until: '17:00' }) : null)} />
                        {t(`hours.day.${day}`)}
                      </label>
                      <Show when={days()[day]} fallback={<span class="muted">{t('hours.closedDay')}</span>}>
                        {(span) => (
                          <>
                            <input type="time" aria-label={t('hours.from', { day: t(`hours.day.${day}`) })} value={span().from} onInput={(event) => setDay(day, { ...span(), from: event.currentTarget.value })} required />
                            <input type="time" aria-label={t('hours.until', { day: t(`hours.day.${day}`) })} value={span().until === '24:00' ? '23:59' : span().until} onInput={(event) => setDay(day, { ...span(), until: event.currentTarget.value })} required />
                          </>
                        )}
                      </Show>
                    </div>
                  )}
                </For>
              </fieldset>
              <label class="field">
                {t('hours.holidays')}
                <textarea name="holidays" rows={3} value={holidays()} onInput={(event) => setHolidays(event.currentTarget.value)} placeholder="2026-12-25" />
              </label>
              <label class="field">
                {t('hours.closedText')}
                <textarea name="closed_text" rows={2} maxLength={500} value={closedText()} onInput={(event) => setClosedText(event.currentTarget.value)} placeholder={t('hours.closedTextPlaceholder')} />
              </label>
              <ErrorLine error={error()} />
              <div class="inline-form">
                <button type="submit" class="primary">
                  {t('hours.save')}
                </button>
                <Show when={answer().hours !== null}>
                  <button type="button" onClick={() => void remove()}>
                    {t('hours.remove')}
                  </button>
                </Show>
                <Show when={savedNow()}>
                  <span role="status">{t('hours.saved')}</span>
                </Show>
              </div>
            </form>
          )
        }}
      </Show>
    </>
  )
}
