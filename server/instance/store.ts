/** Installation-wide facts, by key (which chatbot is the demo...). */
export interface InstanceStore {
  get(key: string): Promise<string | undefined>
  set(key: string, value: string): Promise<void>
}
