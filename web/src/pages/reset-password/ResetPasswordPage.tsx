/**
 * Set a password from a single-use link (`/reset-password?token=…`): the first-run link `npm start`
 * prints for the demo owner, and the CLI's `user reset-password`. Posts `{newPassword, token}` to
 * POST /auth/reset-password, then sends the person to the sign-in page. Outside the shell.
 */
import { useState, type FormEvent } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { paths } from "../../app/paths";
import { resetPassword } from "../../lib/auth";
import { describeError } from "../../lib/errors";

/** The service's rule (src/domain/people/inputs.ts) is checked there; this only spares a round trip. */
const MIN_LENGTH = 10;

export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const token = params.get("token");
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = String(form.get("password"));
    if (password !== String(form.get("repeat"))) return setProblem("The two passwords differ: type the same password twice.");
    setBusy(true);
    setProblem(null);
    try {
      await resetPassword(token!, password);
      navigate(`${paths.signIn()}?password=set`, { replace: true });
    } catch (e) {
      const { code, message } = describeError(e);
      setProblem(code === "VALIDATION_ERROR" && /token/i.test(message) ? "This link has expired or was used already: ask for a new one." : message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <main id="main" className="sign-in">
      <h1>Set your password</h1>
      {!token ? (
        <p className="notice notice-error" role="alert">
          This link is incomplete. Open the whole link you were given, or ask for a new one (<code>npm run cli -- user reset-password --email …</code>).
        </p>
      ) : (
        <form onSubmit={submit}>
          <label htmlFor="password">New password</label>
          <input id="password" name="password" type="password" autoComplete="new-password" minLength={MIN_LENGTH} required autoFocus aria-describedby="password-help" />
          <p id="password-help" className="muted">
            At least {MIN_LENGTH} characters.
          </p>
          <label htmlFor="repeat">Repeat the password</label>
          <input id="repeat" name="repeat" type="password" autoComplete="new-password" minLength={MIN_LENGTH} required />
          {problem && (
            <p className="notice notice-error" role="alert">
              {problem}
            </p>
          )}
          <button type="submit" className="button-primary" disabled={busy}>
            Set password
          </button>
        </form>
      )}
      <p className="muted">
        Have a password already? <Link to={paths.signIn()}>Sign in</Link>.
      </p>
    </main>
  );
}
