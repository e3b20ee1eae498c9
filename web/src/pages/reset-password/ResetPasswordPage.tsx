/**
 * Passwords from a single-use link. Without a token: "Forgot your password?" asks for a link by mail
 * (POST /auth/request-password-reset; the same answer whether the address has an account or not).
 * With one (`/reset-password?token=…`: the mailed link, the first-run link `npm start` prints for the
 * demo owner, the CLI's `user reset-password`): posts `{newPassword, token}` to POST
 * /auth/reset-password, then sends the person to the sign-in page. Outside the shell.
 */
import { useState } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { paths } from "../../lib/paths";
import { AuthForm, NewPasswordFields, usePasswordForm } from "../../components/PasswordForm";
import { requestPasswordReset, resetPassword } from "../../lib/auth";

export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get("token");
  return (
    <main id="main" className="sign-in">
      {token ? <SetPassword token={token} /> : <AskForLink />}
      <p className="muted">
        Have a password already? <Link to={paths.signIn()}>Sign in</Link>.
      </p>
    </main>
  );
}

function SetPassword({ token }: { token: string }) {
  const navigate = useNavigate();
  const form = usePasswordForm(
    async (fields) => {
      await resetPassword(token, String(fields.get("password")));
      navigate(`${paths.signIn()}?password=set`, { replace: true });
    },
    ({ code, message }) =>
      code === "VALIDATION_ERROR" && /token/i.test(message) ? "This link has expired or was used already: ask for a new one." : message,
  );
  return (
    <>
      <h1>Set your password</h1>
      <AuthForm form={form} action="Set password">
        <NewPasswordFields idPrefix="" label="New password" />
      </AuthForm>
    </>
  );
}

function AskForLink() {
  const [sentTo, setSentTo] = useState<string | null>(null);
  const form = usePasswordForm(async (fields) => {
    const email = String(fields.get("email"));
    await requestPasswordReset(email);
    setSentTo(email);
  });
  return (
    <>
      <h1>Forgot your password?</h1>
      {sentTo ? (
        <p className="notice" role="status">
          If {sentTo} has an account, a link to set a new password is on its way. It works once, for one hour.
        </p>
      ) : (
        <AuthForm form={form} action="Send me a link">
          <label htmlFor="email">Email</label>
          <input id="email" name="email" type="email" autoComplete="username" required autoFocus />
        </AuthForm>
      )}
    </>
  );
}
