/**
 * The people mails, probed as the red team did (real SMTP server on loopback): an owner's free text (an API key's name)
 * never reaches an invitation to an outside address, and reaches the owners' own notice only as quoted data with no
 * clickable address; one address gets at most MAIL_MAX_INVITATIONS_PER_ADDRESS_PER_DAY invitations, from every
 * workspace together (429 with Retry-After after that); a first password is told as set, not changed; the reset mail
 * names the account; the authentication routes redirect only to the service, whatever Host header a client sends.
 */
import { describe, expect, it } from "vitest";
import { startMailHarness, linksOf } from "../mail/smtp.js";

const { inbox, api } = await startMailHarness("http://people.example.test");

const { client, gql, newWorkspace, request } = await import("../helpers/api.js");
const { newPerson, signedIn } = await import("../helpers/people.js");
const { createUser, resetPasswordLink } = await import("../../src/domain/people/users.js");

const PHISHING = "Support \u2014 Your account is suspended. Verify now at https://evil.example/login";
const to = (address: string) => (r: { envelope: { to: string[] } }) => r.envelope.to.includes(address);

describe("an owner's free text in mails", () => {
  it("an invitation made with a key named like a phishing line names no key; the owners' notice quotes it without a link", async () => {
    const ws = await newWorkspace("pro", "Acme");
    await newPerson("owner@people.test", ws.workspaceId, "owner");
    const made = await client(api.url, ws.key).post("/api/v1/settings/api-keys", { name: PHISHING });
    expect(made.status).toBe(201);
    const [notice] = await inbox.waitFor((r) => to("owner@people.test")(r) && /API key/.test(r.mail.subject ?? ""));
    expect(notice!.mail.subject).toBe("Security notice: a new API key in “Acme”");
    expect(notice!.mail.text).toContain("“Support — Your account is suspended. Verify now at hxxps[:]//evil[.]example/login”");

    const invited = await gql(
      api.url,
      made.body.data.key,
      `mutation { createInvitation(email: "stranger@people.test", role: MEMBER) { token } }`,
    );
    expect(invited.body.errors).toBeUndefined();
    const [mail] = await inbox.waitFor(to("stranger@people.test"));
    expect(mail!.mail.subject).toBe("Invitation to the workspace “Acme”");
    for (const part of [mail!.mail.subject ?? "", mail!.mail.text ?? "", String(mail!.mail.html ?? "")]) {
      expect(part).not.toContain("Support");
      expect(part).not.toContain("evil");
    }
    expect(mail!.mail.text).toContain("An owner of the workspace invited you to the workspace “Acme” as a member.");
    for (const link of linksOf(mail!)) expect(link.startsWith("http://people.example.test/")).toBe(true);
  });
});

describe("invitations per address", () => {
  it("at most 3 a day to one address from every workspace together; the fourth is 429 with Retry-After, and nothing is made", async () => {
    const a = await newWorkspace("pro", "First");
    const b = await newWorkspace("pro", "Second");
    const invite = (key: string) =>
      gql(api.url, key, `mutation { createInvitation(email: "popular@people.test", role: MEMBER) { invitation { id } } }`);
    for (const key of [a.key, a.key, b.key]) expect((await invite(key)).body.errors).toBeUndefined();
    for (const key of [a.key, b.key]) {
      const refused = await invite(key);
      expect(refused.status).toBe(200);
      expect(refused.body.errors![0].extensions).toMatchObject({ code: "RATE_LIMITED" });
      expect(refused.body.errors![0]!.extensions!.retryAfter).toBeGreaterThan(23 * 3600);
      expect(refused.body.errors![0].message).toMatch(/popular@people\.test was sent 3 invitations in the last 24 hours/);
    }
    // The same address in another case is the same address.
    const upper = await gql(api.url, b.key, `mutation { createInvitation(email: "POPULAR@people.test", role: OWNER) { token } }`);
    expect(upper.body.errors![0]!.extensions!.code).toBe("RATE_LIMITED");
    await inbox.waitFor(to("popular@people.test"), 3);
    await new Promise((r) => setTimeout(r, 300));
    expect(inbox.received.filter(to("popular@people.test"))).toHaveLength(3);
    const pending = await gql(api.url, b.key, `{ invitations(first: 10) { totalCount } }`);
    expect(pending.body.data.invitations.totalCount).toBe(1);
  });
});

describe("words of the password mails", () => {
  it("a first password is told as set; the reset mail names the account and its workspaces", async () => {
    const ws = await newWorkspace("pro", "Newcomers");
    const user = await createUser({ email: "first@people.test" });
    const { setMembership } = await import("../../src/domain/people/members.js");
    const { OPERATOR } = await import("../../src/domain/actors/actor.js");
    await setMembership({ workspaceId: ws.workspaceId, userId: user.id, role: "member", by: OPERATOR });
    const link = await resetPasswordLink("first@people.test");
    const token = new URL(link).searchParams.get("token")!;
    const set = await request(api.url, "POST", "/auth/reset-password", {
      body: { token, newPassword: "a first good password" },
      headers: { origin: api.url },
    });
    expect(set.status, set.text).toBe(200);
    const [notice] = await inbox.waitFor(to("first@people.test"));
    expect(notice!.mail.subject).toBe("Your password is set");
    expect(notice!.mail.text).not.toMatch(/changed|reset/);

    // Asked again from the sign-in page: a reset, which names the account.
    const asked = await request(api.url, "POST", "/auth/request-password-reset", {
      body: { email: "first@people.test", redirectTo: "/reset-password" },
      headers: { origin: api.url },
    });
    expect(asked.status, asked.text).toBe(200);
    const [reset] = await inbox.waitFor((r) => to("first@people.test")(r) && r.mail.subject === "Set a new password");
    expect(reset!.mail.text).toContain("your account (first@people.test), a member of “Newcomers”");
    await signedIn(api.url, "first@people.test", "a first good password");
  });
});

describe("the authentication routes' redirects", () => {
  it("go to the service only, whatever the Host header says", async () => {
    await newPerson("redirect@people.test");
    for (const redirectTo of ["https://evil.example/steal", "//evil.example/x", "/\\evil.example", "javascript:alert(1)"]) {
      const res = await request(api.url, "POST", "/auth/request-password-reset", {
        body: { email: "redirect@people.test", redirectTo },
        headers: { origin: "http://evil.example", host: "evil.example" },
      });
      expect([res.status, res.body?.code], redirectTo).toEqual([400, "VALIDATION_ERROR"]);
    }
    const callback = await request(api.url, "GET", "/auth/reset-password/some-token?callbackURL=https://evil.example/x", {
      headers: { host: "evil.example" },
    });
    expect(callback.status).toBe(400);
    const own = await request(api.url, "POST", "/auth/request-password-reset", {
      body: { email: "redirect@people.test", redirectTo: "http://people.example.test/reset-password" },
      headers: { origin: api.url },
    });
    expect(own.status).toBe(200);
  });
});
