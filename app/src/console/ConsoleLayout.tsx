import { A } from '@solidjs/router'
import { type JSX, Show } from 'solid-js'
import { me, signOut } from '../session.ts'
import './console.css'
import { rich, t } from '../i18n/language.ts'
import { LanguageMenu } from '../LanguageMenu.tsx'

/**
 * The console's frame: its navigation and, for anyone but an admin, nothing but the way to
 * the desk (the server refuses an agent every admin route too; this spares them the screens
 * and the menu items that would only refuse them).
 */
export default function ConsoleLayout(props: { children?: JSX.Element }) {
  const isAdmin = () => me()?.user.role === 'admin'
  return (
    <div class="console">
      <header class="topbar">
        <strong class="brand">{t('shell.consoleBrand')}</strong>
        <nav class="console-nav" aria-label={t('shell.console')}>
          {/* An agent is refused every admin screen: they see only the way back to the desk. */}
          <Show when={isAdmin()}>
            <A href="/console" end>
              {t('shell.nav.chatbots')}
            </A>
            <A href="/console/people">{t('shell.nav.people')}</A>
            <A href="/console/keys">{t('shell.nav.keys')}</A>
            <A href="/console/operations">{t('shell.nav.operations')}</A>
          </Show>
          <A href="/" end data-nav="desk">
            {t('shell.desk')}
          </A>
        </nav>
        <span class="spacer" />
        <span class="who">{me()?.user.display_name}</span>
        <LanguageMenu />
        <button type="button" class="link" onClick={() => void signOut()}>
          {t('shell.signOut')}
        </button>
      </header>
      <Show
        when={isAdmin()}
        fallback={
          <main class="console-main">
            <p class="refused" role="alert">
              {rich('shell.adminsOnly', { role: t(`shell.role.${me()?.user.role ?? 'agent'}`), desk: <A href="/">{t('shell.deskLink')}</A> })}
            </p>
          </main>
        }
      >
        <main class="console-main">{props.children}</main>
      </Show>
    </div>
  )
}
