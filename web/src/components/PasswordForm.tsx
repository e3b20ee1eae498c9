/**
 * What the forms of the /auth routes share (sign in, ask for a link, set a password from a link, create an
 * account from an invitation): they post to the /auth routes (lib/auth.ts), not through Relay, so their
 * outcome is kept here: busy while sending, the problem in words (role=alert) above the one button
 * (AuthForm), and for a new password its two fields and the check that both say the same.
 */
import { useState, type FormEvent, type ReactNode } from "react";
import { describeError } from "../lib/errors";

/** The service's rule (src/domain/people/inputs.ts) is checked there; this only spares a round trip. */
const MIN_LENGTH = 10;

/**
 * `send` posts the form; `explain` words a failure (default: the server's message). A form with a
 * "repeat" field is not sent while the two passwords differ.
 */
export function usePasswordForm(
  send: (form: FormData) => Promise<void>,
  explain: (error: ReturnType<typeof describeError>) => ReactNode = (e) => e.message,
) {
  const [problem, setProblem] = useState<ReactNode>(null);
  const [busy, setBusy] = useState(false);
  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    if (form.has("repeat") && form.get("password") !== form.get("repeat"))
      return setProblem("The two passwords differ: type the same password twice.");
    setBusy(true);
    setProblem(null);
    try {
      await send(form);
    } catch (e) {
      setProblem(explain(describeError(e)));
    } finally {
      setBusy(false);
    }
  }
  return { submit, busy, problem };
}

function FormProblem({ problem }: { problem: ReactNode }) {
  if (!problem) return null;
  return (
    <p className="notice notice-error" role="alert">
      {problem}
    </p>
  );
}

/** One of these forms: its fields (`children`), the problem in words, and its primary button, disabled while it is sent. */
export function AuthForm({ form, action, children }: { form: ReturnType<typeof usePasswordForm>; action: string; children: ReactNode }) {
  return (
    <form onSubmit={form.submit}>
      {children}
      <FormProblem problem={form.problem} />
      <button type="submit" className="button-primary" disabled={form.busy}>
        {action}
      </button>
    </form>
  );
}

/** A new password and its repeat, named "password" and "repeat"; `idPrefix` keeps the ids unique on the page. */
export function NewPasswordFields({ idPrefix, label = "Password" }: { idPrefix: string; label?: string }) {
  return (
    <>
      <label htmlFor={`${idPrefix}password`}>{label}</label>
      <input
        id={`${idPrefix}password`}
        name="password"
        type="password"
        autoComplete="new-password"
        minLength={MIN_LENGTH}
        required
        aria-describedby={`${idPrefix}password-help`}
      />
      <p id={`${idPrefix}password-help`} className="muted">
        At least {MIN_LENGTH} characters.
      </p>
      <label htmlFor={`${idPrefix}repeat`}>Repeat the password</label>
      <input id={`${idPrefix}repeat`} name="repeat" type="password" autoComplete="new-password" minLength={MIN_LENGTH} required />
    </>
  );
}
