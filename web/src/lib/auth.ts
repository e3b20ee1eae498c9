/**
 * The session routes (better-auth under /auth, docs/contract/decisions.md "People, sign-in and the
 * dashboard"): plain same-origin fetches; the session lives in an HttpOnly cookie the browser keeps.
 *
 * The dashboard cannot read that cookie, so it remembers in this browser whether it signed in
 * (`maybeSignedIn`): a visit without it goes to the sign-in page before any query is sent. It is
 * only a hint, never a credential: a remembered sign-in whose session has ended is found out by the
 * first query (then forgotten), as before.
 */
import { fromHttpResponse } from "./errors";

const HINT_KEY = "dashboard.signedIn";

function hint(on: boolean): void {
  try {
    if (on) window.localStorage.setItem(HINT_KEY, "1");
    else window.localStorage.removeItem(HINT_KEY);
  } catch {
    // storage refused (private mode): every visit asks the server, as without the hint
  }
}

/** False only when this browser is known to be signed out (it never signed in, or signed out since). */
export function maybeSignedIn(): boolean {
  try {
    return window.localStorage.getItem(HINT_KEY) === "1";
  } catch {
    return true;
  }
}

/** The server said the session has ended (UNAUTHORIZED, or no viewer). */
export const forgetSignedIn = () => hint(false);

async function post(path: string, body: unknown): Promise<void> {
  const res = await fetch(path, {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": "application/json", "x-requested-with": "dashboard" },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw await fromHttpResponse(res);
}

export const signIn = (email: string, password: string) => post("/auth/sign-in/email", { email, password }).then(() => hint(true));
export const signOut = () => post("/auth/sign-out", {}).finally(() => hint(false));
export const resetPassword = (token: string, newPassword: string) => post("/auth/reset-password", { token, newPassword });
/** Asks for a reset link by mail; the answer is the same whether the address has an account or not. */
export const requestPasswordReset = (email: string) => post("/auth/request-password-reset", { email });
/** Creates an account with an invitation's token: the new person joins its workspace and is signed in. */
export const signUpWithInvitation = (body: { email: string; password: string; name: string; invitationToken: string }) =>
  post("/auth/sign-up/email", body).then(() => hint(true));
