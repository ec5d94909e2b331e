import { useState, type FormEvent } from 'react';
import { useLocation, useSearch } from 'wouter';
import { ApiFailure } from '../api/client';
import { useSession } from '../api/session';
import { ErrorPanel } from '../components/Async';

/** Only same-app paths are followed after sign-in (no open redirect through ?next=). */
export function safeNext(next: string | null): string {
  return next && next.startsWith('/') && !next.startsWith('//') && !next.includes('\\') ? next : '/';
}

export function SignInPage() {
  const { signIn } = useSession();
  const search = useSearch();
  const [, navigate] = useLocation();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<ApiFailure | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await signIn(username, password);
      navigate(safeNext(new URLSearchParams(search).get('next')), { replace: true });
    } catch (err) {
      const f = err instanceof ApiFailure ? err : new ApiFailure('server', 0, String(err));
      setError(
        f.kind === 'unauthenticated'
          ? new ApiFailure('unauthenticated', 401, 'Wrong user name or password.')
          : f,
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="signin">
      <h1>Sign in to Sluice</h1>
      <form onSubmit={submit}>
        <label>
          User name{' '}
          <input
            name="username"
            autoComplete="username"
            value={username}
            required
            autoFocus
            onChange={(e) => setUsername(e.target.value)}
          />
        </label>
        <label>
          Password{' '}
          <input
            name="password"
            type="password"
            autoComplete="current-password"
            value={password}
            required
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        <button type="submit" disabled={busy}>
          Sign in
        </button>
      </form>
      {error && <ErrorPanel error={error} />}
    </section>
  );
}
