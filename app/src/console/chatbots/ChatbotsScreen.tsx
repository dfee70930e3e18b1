import { A } from '@solidjs/router'
import { createResource, createSignal, For, Show } from 'solid-js'
import { type Chatbot, consoleApi } from '../console-api.ts'
import { ConfirmFor } from '../ConfirmFor.tsx'
import { createAction, ErrorLine, when } from '../parts.tsx'
import { rich, t } from '../../i18n/language.ts'

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
      <h1>{t('bots.title')}</h1>
      <form class="inline-form card" onSubmit={create}>
        <label>
          {t('bots.new')}
          <input name="name" value={name()} onInput={(e) => setName(e.currentTarget.value)} maxLength={200} required placeholder={t('bots.namePlaceholder')} />
        </label>
        <button type="submit" class="primary" disabled={!name().trim()}>
          {t('bots.create')}
        </button>
      </form>
      <ErrorLine error={error()} />
      <section class="card">
        <Show when={bots()} fallback={<p class="loading">{t('console.loading')}</p>}>
          <Show when={(bots()?.items.length ?? 0) > 0} fallback={<p class="muted">{t('bots.none')}</p>}>
            <table class="table chatbots">
              <thead>
                <tr>
                  <th>{t('bots.name')}</th>
                  <th class="wide">{t('bots.created')}</th>
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
                            <input aria-label={t('bots.newName')} value={renaming()?.name ?? ''} maxLength={200} onInput={(e) => setRenaming({ id: bot.id, name: e.currentTarget.value })} />
                            <button type="submit" class="primary">
                              {t('bots.save')}
                            </button>
                            <button type="button" onClick={() => setRenaming(null)}>
                              {t('console.cancel')}
                            </button>
                          </form>
                        </Show>
                      </td>
                      <td class="wide muted">{when(bot.created_at)}</td>
                      <td>
                        {/* The flex box inside the cell: a flex td is no table cell, and its row line would sit apart. */}
                        <div class="actions">
                          <button type="button" onClick={() => setRenaming({ id: bot.id, name: bot.name })}>
                            {t('bots.rename')}
                          </button>
                          <button type="button" onClick={() => setDeleting(bot)}>
                            {t('bots.delete')}
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
        title={(bot) => t('bots.deleteTitle', { name: bot.name })}
        confirm={t('bots.deleteConfirm')}
        onClose={() => setDeleting(null)}
        onConfirm={(bot) => void run(() => consoleApi.deleteChatbot(bot.id))}
      >
        {(bot) => (
          <p>
            {rich('bots.deleteBody', { name: <strong>{bot.name}</strong> })}
          </p>
        )}
      </ConfirmFor>
    </>
  )
}
