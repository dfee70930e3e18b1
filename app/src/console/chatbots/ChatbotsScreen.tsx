import { A } from '@solidjs/router'
import { createResource, createSignal, For, Show } from 'solid-js'
import { type Chatbot, consoleApi } from '../console-api.ts'
import { ConfirmFor } from '../ConfirmFor.tsx'
import { createAction, ErrorLine, when } from '../parts.tsx'

/** The chatbots: list, create, rename, delete (after saying what goes with it). */
export default function ChatbotsScreen() {
  const [bots, { refetch }] = createResource(() => consoleApi.chatbots())
  const [name, setName] = createSignal('')
  const [renaming, setRenaming] = createSignal<{ id: string; name: string } | null>(null)
  const [deleting, setDeleting] = createSignal<Chatbot | null>(null)

  const { error, act } = createAction()
  const run = (work: () => Promise<unknown>) =>
    act(async () => {
      await work()
      await refetch()
    })
  const create = (event: SubmitEvent) => {
    event.preventDefault()
    void run(async () => {
      await consoleApi.createChatbot(name().trim())
      setName('')
    })
  }

  return (
    <>
      <h1>Chatbots</h1>
      <form class="inline-form card" onSubmit={create}>
        <label>
          New chatbot
          <input name="name" value={name()} onInput={(e) => setName(e.currentTarget.value)} maxLength={200} required placeholder="Support" />
        </label>
        <button type="submit" class="primary" disabled={!name().trim()}>
          Create
        </button>
      </form>
      <ErrorLine error={error()} />
      <section class="card">
        <Show when={bots()} fallback={<p class="loading">Loading…</p>}>
          <Show when={(bots()?.items.length ?? 0) > 0} fallback={<p class="muted">No chatbot yet: create one above.</p>}>
            <table class="table chatbots">
              <thead>
                <tr>
                  <th>Name</th>
                  <th class="wide">Created</th>
                  <th />
                </tr>
              </thead>
              <tbody>
                <For each={bots()?.items}>
                  {(bot) => (
                    <tr data-chatbot={bot.id}>
                      <td>
                        <Show when={renaming()?.id === bot.id} fallback={<A href={`/console/bots/${bot.id}`}>{bot.name}</A>}>
                          <form
                            class="inline-form"
                            onSubmit={(event) => {
                              event.preventDefault()
                              const next = renaming()
                              if (next) void run(async () => {
                                await consoleApi.updateChatbot(bot.id, { name: next.name.trim() })
                                setRenaming(null)
                              })
                            }}
                          >
                            <input aria-label="New name" value={renaming()?.name ?? ''} maxLength={200} onInput={(e) => setRenaming({ id: bot.id, name: e.currentTarget.value })} />
                            <button type="submit" class="primary">
                              Save
                            </button>
                            <button type="button" onClick={() => setRenaming(null)}>
                              Cancel
                            </button>
                          </form>
                        </Show>
                      </td>
                      <td class="wide muted">{when(bot.created_at)}</td>
                      <td>
                        {/* The flex box inside the cell: a flex td is no table cell, and its row line would sit apart. */}
                        <div class="actions">
                          <button type="button" onClick={() => setRenaming({ id: bot.id, name: bot.name })}>
                            Rename
                          </button>
                          <button type="button" onClick={() => setDeleting(bot)}>
                            Delete
                          </button>
                        </div>
                      </td>
                    </tr>
                  )}
                </For>
              </tbody>
            </table>
          </Show>
        </Show>
      </section>
      <ConfirmFor
        item={deleting()}
        title={(bot) => `Delete ${bot.name}?`}
        confirm="Delete for good"
        onClose={() => setDeleting(null)}
        onConfirm={(bot) => void run(() => consoleApi.deleteChatbot(bot.id))}
      >
        {(bot) => (
          <p>
            This deletes <strong>{bot.name}</strong> with everything it has: its flows and their versions, its integrations (the widget stops on every site that
            embeds it, webhooks stop, MCP servers are forgotten), and every conversation, contact and message. It cannot be undone; download a backup first
            (Operations) if you may need any of it.
          </p>
        )}
      </ConfirmFor>
    </>
  )
}
