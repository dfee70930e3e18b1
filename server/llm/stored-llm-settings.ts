/** The model settings as stored (the api key in clear, for the agent runner); the limits filled with their defaults when read. */
export interface StoredLlmSettings {
  base_url: string
  model: string
  temperature: number | null
  api_key: string | null
  max_tokens: number
  call_deadline_ms: number
  run_deadline_ms: number
}
