/**
 * Forms and inputs: input names unique on a screen (across If/Switch branches too), inputs
 * inside a Form before 4.0, none outside once a screen has a Form from 4.0 on, and
 * `init-values` that name the Form's inputs with values of their types, never for
 * PhotoPicker or DocumentPicker.
 */
import { MetaCode } from './codes.ts'
import { COMPONENTS, FORM_ONLY_BEFORE_4 } from './component-catalog.ts'
import type { FormFact, InputFact, MetaContext, ScreenFacts } from './context.ts'
import { valueTypesOf } from './data-binding.ts'
import { type JsonObject, isObject, listSome, token } from './json.ts'
import { FEATURE_SINCE } from './versions.ts'

export function registerForm(screen: ScreenFacts, component: JsonObject, path: string): FormFact {
  const name = typeof component.name === 'string' ? component.name : ''
  const form: FormFact = { name, path, node: component, inputs: [] }
  screen.forms.push(form)
  if (name) {
    screen.names.add(name)
    if (!screen.formsByName.has(name)) screen.formsByName.set(name, form)
  }
  return form
}

export function registerInput(ctx: MetaContext, screen: ScreenFacts, type: string, component: JsonObject, path: string, form: FormFact | null): void {
  if (!ctx.atLeast(FEATURE_SINCE.globalBindings) && form === null && FORM_ONLY_BEFORE_4.has(type)) {
    ctx.issues.error(path, MetaCode.KEYWORD_ONE_OF, `Before Flow JSON 4.0 a ${type} must sit inside a Form. Move it into the screen's Form, or raise "version" to 4.0 or later.`)
  }
  const name = component.name
  if (typeof name !== 'string') return
  screen.names.add(name)
  const existing = screen.inputs.get(name)
  if (existing) {
    ctx.issues.error(
      `${path}/name`,
      MetaCode.DUPLICATE_FORM_COMPONENT_NAMES,
      `Another input on this screen is already named '${name}' (${existing.path}); names must be unique, also across If and Switch branches. Rename one.`,
    )
    return
  }
  const input: InputFact = { name, type, path, node: component, form }
  screen.inputs.set(name, input)
  form?.inputs.push(input)
}

/** Screen-wide form rules, once the whole screen is known. */
export function checkForms(ctx: MetaContext, screen: ScreenFacts): void {
  if (screen.forms.length > 0 && ctx.atLeast(FEATURE_SINCE.globalBindings)) {
    for (const input of screen.inputs.values()) {
      if (input.form === null) {
        ctx.issues.error(
          input.path,
          MetaCode.COMPONENTS_OUTSIDE_FORM,
          `This screen has a Form, so its inputs must all be inside it; ${input.type} '${input.name}' is not. Move it into the Form, or remove the Form.`,
        )
      }
    }
  }
  for (const form of screen.forms) checkInitValues(ctx, screen, form)
}

function checkInitValues(ctx: MetaContext, screen: ScreenFacts, form: FormFact): void {
  const initValues = form.node['init-values']
  if (!isObject(initValues)) return
  const inputs = new Map(form.inputs.map((input) => [input.name, input]))
  for (const key in initValues) {
    const path = `${form.path}/init-values/${token(key)}`
    const input = inputs.get(key)
    if (!input) {
      ctx.issues.error(path, MetaCode.INVALID_INIT_VALUES, `'${key}' is not an input of Form '${form.name}'. Use one of ${listSome(inputs.keys(), inputs.size) || 'its inputs'}, or remove it.`)
      continue
    }
    const spec = COMPONENTS[input.type]?.input
    if (spec?.maxUploadsProperty) {
      ctx.issues.error(path, MetaCode.NATIVE_COMPONENT_IN_FORM_INIT_VALUES, `'init-values' cannot preset ${input.type} '${key}': its files come from the device. Remove it.`)
      continue
    }
    const allowed = spec?.valueTypes(input.node) ?? []
    const given = valueTypesOf(ctx, screen, initValues[key])
    if (given !== null && allowed.length > 0 && !given.some((type) => allowed.includes(type))) {
      ctx.issues.error(path, MetaCode.INVALID_INIT_VALUES, `The initial value of ${input.type} '${key}' must be ${allowed.join(' or ')}, not ${given.join(' or ')}.`)
    }
  }
}

