import { A } from '@solidjs/router'
import { type JSX, Show } from 'solid-js'
import { me, signOut } from '../session.ts'
import './console.css'

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
        <strong class="brand">Parley console</strong>
        <nav class="console-nav" aria-label="Console">
          {/* An agent is refused every admin screen: they see only the way back to the desk. */}
          <Show when={isAdmin()}>
            <A href="/console" end>
              Chatbots
            </A>
            <A href="/console/people">People</A>
            <A href="/console/keys">API keys</A>
            <A href="/console/operations">Operations</A>
          </Show>
          <A href="/" end data-nav="desk">
            Desk
          </A>
        </nav>
        <span class="spacer" />
        <span class="who">{me()?.user.display_name}</span>
        <button type="button" class="link" onClick={() => void signOut()}>
          Sign out
        </button>
      </header>
      <Show
        when={isAdmin()}
        fallback={
          <main class="console-main">
            <p class="refused" role="alert">
              The console is for admins. Your role is {me()?.user.role}: the <A href="/">desk</A> has everything you need.
            </p>
          </main>
        }
      >
        <main class="console-main">{props.children}</main>
      </Show>
    </div>
  )
}
