/**
 * The session routes (better-auth under /auth, docs/contract/decisions.md "People, sign-in and the
 * dashboard"): plain same-origin fetches; the session lives in an HttpOnly cookie the browser keeps.
 */
import { fromHttpResponse } from "./errors";

async function post(path: string, body: unknown): Promise<void> {
  const res = await fetch(path, {
    method: "POST",
    credentials: "same-origin",
    headers: { "content-type": "application/json", "x-requested-with": "dashboard" },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw await fromHttpResponse(res);
}

export const signIn = (email: string, password: string) => post("/auth/sign-in/email", { email, password });
export const signOut = () => post("/auth/sign-out", {});
export const resetPassword = (token: string, newPassword: string) => post("/auth/reset-password", { token, newPassword });
/** Creates an account with an invitation's token: the new person joins its workspace and is signed in. */
export const signUpWithInvitation = (body: { email: string; password: string; name: string; invitationToken: string }) => post("/auth/sign-up/email", body);
