import { useEffect, type ReactNode } from 'react';
import { Link, Redirect, Route, Router, Switch, useLocation, useSearch } from 'wouter';
import { ANONYMOUS, SessionProvider, useSession } from './api/session';
import { ErrorPanel } from './components/Async';
import { JobPage } from './pages/JobPage';
import { JobsPage } from './pages/JobsPage';
import { OverviewPage } from './pages/OverviewPage';
import { RunPage } from './pages/RunPage';
import { SignInPage } from './pages/SignInPage';
import { ThrottlePage } from './pages/ThrottlePage';
import { TierPage } from './pages/TierPage';

const NAV = [
  { href: '/', label: 'Overview' },
  { href: '/jobs', label: 'Jobs' },
  { href: '/throttle', label: 'ESS throttling' },
  { href: '/tier', label: 'Push tier' },
];

function NavLink({ href, label }: { href: string; label: string }) {
  const [location] = useLocation();
  const active = href === '/' ? location === '/' : location.startsWith(href);
  return (
    <Link href={href} aria-current={active ? 'page' : undefined}>
      {label}
    </Link>
  );
}

function Shell({ children }: { children: ReactNode }) {
  const { me, signOut } = useSession();
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <span className="brand">Sluice</span>
        <nav aria-label="Main">
          {NAV.map((n) => (
            <NavLink key={n.href} {...n} />
          ))}
        </nav>
        {me && (
          <span className="who" data-testid="who">
            {me.user} ({me.roles.join(', ')}){' '}
            {me.user !== ANONYMOUS && (
              <button type="button" onClick={() => void signOut()}>
                Sign out
              </button>
            )}
          </span>
        )}
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
    </>
  );
}

function TitleFromHeading() {
  const [location] = useLocation();
  const search = useSearch();
  useEffect(() => {
    const t = setTimeout(() => {
      const h = document.querySelector('main h1');
      document.title = h?.textContent ? `${h.textContent} · Sluice` : 'Sluice';
    }, 0);
    return () => clearTimeout(t);
  }, [location, search]);
  return null;
}

function Pages() {
  const { state, refresh } = useSession();
  const [location] = useLocation();
  const search = useSearch();
  if (location === '/signin') return <SignInPage />;
  // While the session is still being asked for, the page already renders and fetches its data: the two requests
  // run side by side instead of one after the other. A signed-out reader's page data fails with 401 and the
  // redirect below replaces the page as soon as the session answers.
  if (state.status === 'signedOut') {
    const next = location + (search ? `?${search}` : '');
    return <Redirect to={`/signin?next=${encodeURIComponent(next)}`} replace />;
  }
  if (state.status === 'error') return <ErrorPanel error={state.error} onRetry={() => void refresh()} />;
  return (
    <Switch>
      <Route path="/">
        <OverviewPage />
      </Route>
      <Route path="/jobs">
        <JobsPage />
      </Route>
      <Route path="/job">
        <JobPage />
      </Route>
      <Route path="/run">
        <RunPage />
      </Route>
      <Route path="/throttle">
        <ThrottlePage />
      </Route>
      <Route path="/tier">
        <TierPage />
      </Route>
      <Route>
        <h1>Page not found</h1>
        <p>
          There is no page at this address. Go to the <Link href="/">overview</Link>.
        </p>
      </Route>
    </Switch>
  );
}

export function App() {
  return (
    <Router base="/ui">
      <SessionProvider>
        <Shell>
          <Pages />
        </Shell>
        <TitleFromHeading />
      </SessionProvider>
    </Router>
  );
}
