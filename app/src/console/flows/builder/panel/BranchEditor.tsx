import { intlTag, t } from '../../../../i18n/language.ts'
import { For, Match, Switch } from 'solid-js'
import { isObject, type Json, objectsIn } from '../model/json.ts'
import { addedBeforeCatchAll, type Builder, Field, GoTo, moved, RowTools, liveObjectAt, positions } from './fields.tsx'

type Subject = 'var' | 'contact' | 'hours' | 'else'
const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const

/** A day of the flow's opening hours (`mon`…`sun`, as stored) by its short name in the language shown. */
const dayName = (day: (typeof DAYS)[number]) => new Intl.DateTimeFormat(intlTag(), { weekday: 'short', timeZone: 'UTC' }).format(new Date(Date.UTC(2024, 0, 1 + DAYS.indexOf(day))))

const subjectOf = (rule: Json): Subject => (isObject(rule.hours) ? 'hours' : 'var' in rule ? 'var' : 'contact' in rule ? 'contact' : 'else')
const testOf = (rule: Json) => (rule.set === true ? 'set' : rule.set === false ? 'unset' : 'equals')

/** A condition state: entries tried in order, each a test on a variable, a contact detail or the opening hours; the last is the else. */
export function BranchEditor(props: { builder: Builder; base: string; branch: unknown }) {
  const rules = () => objectsIn(props.branch).map(({ value }) => value)
  const setRules = (next: Json[]) => props.builder.set(`${props.base}/branch`, next)
  const resubject = (rule: Json, subject: Subject): Json => {
    const to = rule.to === undefined ? {} : { to: rule.to }
    if (subject === 'var') return { var: Object.keys(props.builder.variables())[0] ?? '', set: true, ...to }
    if (subject === 'contact') return { contact: 'email', set: true, ...to }
    if (subject === 'hours') return { hours: { timezone: Intl.DateTimeFormat().resolvedOptions().timeZone, days: ['mon', 'tue', 'wed', 'thu', 'fri'], from: '09:00', until: '17:00' }, ...to }
    return { ...to }
  }
  const retest = (rule: Json, test: string): Json => {
    const { equals: _equals, set: _set, ...rest } = rule
    if (test === 'set') return { ...rest, set: true }
    if (test === 'unset') return { ...rest, set: false }
    return { ...rest, equals: '' }
  }
  return (
    <div class="branches">
      <p class="hint">{t('flowPanel.branchHint')}</p>
      <For each={positions(rules())}>
        {(position) => {
          const rule = liveObjectAt(rules, position)
          const index = () => position
          const at = () => `${props.base}/branch/${index()}`
          const hours = () => (isObject(rule.hours) ? rule.hours : {})
          return (
            <div class="way-row" data-way={`branch/${index()}`}>
              <div class="row">
                <select aria-label={t('flowPanel.check')} value={subjectOf(rule)} onChange={(event) => props.builder.set(at(), resubject(rule, event.currentTarget.value as Subject))}>
                  <option value="var">{t('flowPanel.subject.var')}</option>
                  <option value="contact">{t('flowPanel.subject.contact')}</option>
                  <option value="hours">{t('flowPanel.subject.hours')}</option>
                  <option value="else">{t('flowPanel.subject.else')}</option>
                </select>
                <RowTools what="condition" index={index()} count={rules().length} move={(from, to) => setRules(moved(rules(), from, to))} remove={() => setRules(rules().filter((_, i) => i !== index()))} />
              </div>
              <Switch>
                <Match when={subjectOf(rule) === 'var' || subjectOf(rule) === 'contact'}>
                  <div class="row">
                    <Switch>
                      <Match when={subjectOf(rule) === 'var'}>
                        <Field label={t('flowPanel.variable')} pointer={`${at()}/var`} builder={props.builder}>
                          <select value={String(rule.var ?? '')} onChange={(event) => props.builder.set(`${at()}/var`, event.currentTarget.value)}>
                            <option value="">{t('flowPanel.choose')}</option>
                            <For each={Object.keys(props.builder.variables())}>{(name) => <option value={name} selected={name === rule.var}>{name}</option>}</For>
                          </select>
                        </Field>
                      </Match>
                      <Match when={true}>
                        <Field label={t('flowPanel.contactDetail')} pointer={`${at()}/contact`} builder={props.builder}>
                          <input value={String(rule.contact ?? '')} onInput={(event) => props.builder.set(`${at()}/contact`, event.currentTarget.value, `${at()}/contact`)} />
                        </Field>
                      </Match>
                    </Switch>
                    <Field label={t('flowPanel.test')} pointer={`${at()}/equals`} builder={props.builder}>
                      <select value={testOf(rule)} onChange={(event) => props.builder.set(at(), retest(rule, event.currentTarget.value))}>
                        <option value="set">{t('flowPanel.test.set')}</option>
                        <option value="unset">{t('flowPanel.test.unset')}</option>
                        <option value="equals">{t('flowPanel.test.equals')}</option>
                      </select>
                    </Field>
                  </div>
                  <Switch>
                    <Match when={testOf(rule) === 'equals'}>
                      <Field label={t('flowPanel.value')} pointer={`${at()}/equals`} builder={props.builder}>
                        <input value={String(rule.equals ?? '')} onInput={(event) => props.builder.set(`${at()}/equals`, event.currentTarget.value, `${at()}/equals`)} />
                      </Field>
                    </Match>
                  </Switch>
                </Match>
                <Match when={subjectOf(rule) === 'hours'}>
                  <Field label={t('flowPanel.timeZone')} pointer={`${at()}/hours/timezone`} builder={props.builder}>
                    <input value={String(hours().timezone ?? '')} onInput={(event) => props.builder.set(`${at()}/hours/timezone`, event.currentTarget.value, `${at()}/hours/timezone`)} />
                  </Field>
                  <Field label={t('flowPanel.days')} pointer={`${at()}/hours/days`} builder={props.builder} exact={false}>
                    <span class="days">
                      <For each={[...DAYS]}>
                        {(day) => {
                          const days = () => (Array.isArray(hours().days) ? (hours().days as string[]) : [])
                          return (
                            <label class="day">
                              <input type="checkbox" checked={days().includes(day)} onChange={(event) => props.builder.set(`${at()}/hours/days`, event.currentTarget.checked ? DAYS.filter((d) => d === day || days().includes(d)) : days().filter((d) => d !== day))} />
                              {dayName(day)}
                            </label>
                          )
                        }}
                      </For>
                    </span>
                  </Field>
                  <div class="row">
                    <Field label={t('flowPanel.from')} pointer={`${at()}/hours/from`} builder={props.builder}>
                      <input type="time" value={String(hours().from ?? '')} onChange={(event) => props.builder.set(`${at()}/hours/from`, event.currentTarget.value)} />
                    </Field>
                    <Field label={t('flowPanel.until')} pointer={`${at()}/hours/until`} builder={props.builder}>
                      <input type="time" value={String(hours().until ?? '')} onChange={(event) => props.builder.set(`${at()}/hours/until`, event.currentTarget.value)} />
                    </Field>
                  </div>
                </Match>
              </Switch>
              <GoTo at={at()} to={rule.to} builder={props.builder} />
            </div>
          )
        }}
      </For>
      <button
        type="button"
        onClick={() => setRules(addedBeforeCatchAll(rules(), (rule) => subjectOf(rule) === 'else', resubject({}, 'var')))}
      >
        {t('flowPanel.addCondition')}
      </button>
    </div>
  )
}
