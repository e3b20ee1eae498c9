/**
 * Sign in with email and password (POST /auth/sign-in/email, the session cookie comes back), then
 * go where the person was headed (?next=). The only page outside the shell.
 */
import { Link, useNavigate, useSearchParams } from "react-router";
import { paths } from "../../lib/paths";
import { AuthForm, usePasswordForm } from "../../components/PasswordForm";
import { signIn } from "../../lib/auth";
import { useWorkspaceChoice } from "../../relay/workspace";

/** Only a path of this dashboard: never another host (an open redirect). */
function safeNext(next: string | null): string {
  return next && next.startsWith("/") && !next.startsWith("//") ? next : "/";
}

export default function SignInPage() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const { startOver } = useWorkspaceChoice();
  const form = usePasswordForm(
    async (fields) => {
      await signIn(String(fields.get("email")), String(fields.get("password")));
      startOver();
      navigate(safeNext(params.get("next")), { replace: true });
    },
    ({ code, message, retryAfter }) =>
      `${code === "UNAUTHORIZED" ? "Wrong email or password." : message} ${code === "RATE_LIMITED" && retryAfter ? `Try again in ${retryAfter} s.` : ""}`,
  );

  return (
    <main id="main" className="sign-in">
      <h1>Sign in</h1>
      {/* Said once, right after setting it: not beside a failed sign-in's problem. */}
      {params.get("password") === "set" && !form.problem && (
        <p className="notice" role="status">
          Your password is set: sign in with your email and the new password.
        </p>
      )}
      <AuthForm form={form} action="Sign in">
        <label htmlFor="email">Email</label>
        <input id="email" name="email" type="email" autoComplete="username" required autoFocus />
        <label htmlFor="password">Password</label>
        <input id="password" name="password" type="password" autoComplete="current-password" required />
      </AuthForm>
      <p>
        <Link to={paths.resetPassword()}>Forgot your password?</Link>
      </p>
      <p className="muted">
        No account yet? Ask an owner of your workspace for an invitation. On a new installation, open the link the service printed to set
        the first owner's password.
      </p>
    </main>
  );
}
