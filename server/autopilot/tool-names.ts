/** What OpenAI-compatible APIs accept as a function name. */
const FUNCTION_NAME = /^[a-zA-Z0-9_-]{1,64}$/

/**
 * Function names for the model: each MCP tool is prefixed with its integration's name
 * (`billing__find_invoice`), so two servers' tools never collide; characters the API refuses
 * become `_`, and a name still taken or too long gets a number. The map turns the model's
 * choice back into (integration, tool).
 */
export function toolNames() {
  const byFunction = new Map<string, { integrationId: string; tool: string }>()
  const taken = new Set<string>()

  function reserve(wanted: string): string {
    let name = wanted.replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64) || 'tool'
    for (let n = 2; taken.has(name) || !FUNCTION_NAME.test(name); n++) name = `${name.slice(0, 60)}_${n}`
    taken.add(name)
    return name
  }

  return {
    reserve,
    forTool(integrationName: string, integrationId: string, tool: string): string {
      const name = reserve(`${integrationName}__${tool}`)
      byFunction.set(name, { integrationId, tool })
      return name
    },
    tool: (functionName: string) => byFunction.get(functionName),
  }
}
