/**
 * Set a password from a single-use link (`/reset-password?token=…`): the first-run link `npm start`
 * prints for the demo owner, and the CLI's `user reset-password`. Posts `{newPassword, token}` to
 * POST /auth/reset-password, then sends the person to the sign-in page. Outside the shell.
 */
import { Link, useNavigate, useSearchParams } from "react-router";
import { paths } from "../../app/paths";
import { FormProblem, NewPasswordFields, usePasswordForm } from "../../components/PasswordForm";
import { resetPassword } from "../../lib/auth";

export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const token = params.get("token");
  const { submit, busy, problem } = usePasswordForm(
    async (form) => {
      await resetPassword(token!, String(form.get("password")));
      navigate(`${paths.signIn()}?password=set`, { replace: true });
    },
    ({ code, message }) => (code === "VALIDATION_ERROR" && /token/i.test(message) ? "This link has expired or was used already: ask for a new one." : message),
  );

  return (
    <main id="main" className="sign-in">
      <h1>Set your password</h1>
      {!token ? (
        <p className="notice notice-error" role="alert">
          This link is incomplete. Open the whole link you were given, or ask for a new one (<code>npm run cli -- user reset-password --email …</code>).
        </p>
      ) : (
        <form onSubmit={submit}>
          <NewPasswordFields idPrefix="" label="New password" />
          <FormProblem problem={problem} />
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
