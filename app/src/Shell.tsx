import { Navigate, Route, Router } from '@solidjs/router'
import { type JSX, Match, onMount, Switch } from 'solid-js'
import { ConsoleFrame, consoleRoutes } from './console/routes.tsx'
import { Desk } from './desk/Desk.tsx'
import { LinkPage } from './pages/LinkPage.tsx'
import { SignInPage } from './pages/SignInPage.tsx'
import { loadMe, me } from './session.ts'
import { t } from './i18n/language.ts'

/**
 * The app shell the desk (and later the console) live in: one router under /app. Pages for
 * one-time links and sign-in work signed out; everything else needs a session, and a 401 at
 * any time brings sign-in back with the page it was on kept for after.
 */
export function Shell() {
  onMount(() => void loadMe())
  return (
    <Router base="/app">
      <Route path="/sign-in" component={SignInPage} />
      <Route path="/setup" component={() => <LinkPage purpose="setup" />} />
      <Route path="/invite" component={() => <LinkPage purpose="invite" />} />
      <Route path="/reset-password" component={() => <LinkPage purpose="reset" />} />
      <Route path={['/', '/c/:conversationId']} component={() => <SignedIn>{() => <Desk />}</SignedIn>} />
      <Route path="/console" component={(props: { children?: JSX.Element }) => <SignedIn>{() => <ConsoleFrame>{props.children}</ConsoleFrame>}</SignedIn>}>{consoleRoutes}</Route>
      <Route path="*rest" component={() => <Navigate href="/" />} />
    </Router>
  )
}

function SignedIn(props: { children: () => JSX.Element }) {
  const here = () => window.location.pathname.replace(/^\/app/, '') + window.location.search
  return (
    <Switch>
      <Match when={me() === undefined}>
        <p class="loading">{t('shell.loading')}</p>
      </Match>
      <Match when={me() === null}>
        <Navigate href={() => `/sign-in?next=${encodeURIComponent(here())}`} />
      </Match>
      <Match when={me()}>{props.children()}</Match>
    </Switch>
  )
}
