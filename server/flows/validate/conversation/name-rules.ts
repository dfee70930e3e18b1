import { STATE_NAME_PATTERN, VARIABLE_NAME_PATTERN } from '../../../flow-language/conversation-flow-schema.ts'
import { pointer } from '../validation-issue.ts'
import type { DefinitionView } from './definition-view.ts'
import type { Findings } from './findings.ts'

const stateName = new RegExp(STATE_NAME_PATTERN)
const variableName = new RegExp(VARIABLE_NAME_PATTERN)

/** State and variable names are keys, so transitions and templates can name them: they must fit the name patterns. */
export function checkNames(view: DefinitionView, findings: Findings): void {
  for (const name of view.stateNames) {
    if (stateName.test(name)) continue
    findings.error(
      pointer('states', name),
      'invalid_state_name',
      `"${name}" is not a state name: start with a letter or _, then use letters, digits, _ or -, at most 64 characters`,
    )
  }
  for (const name of view.variables.keys()) {
    if (variableName.test(name)) continue
    findings.error(
      pointer('variables', name),
      'invalid_variable_name',
      `"${name}" is not a variable name: start with a letter or _, then use letters, digits or _, at most 64 characters`,
    )
  }
}
