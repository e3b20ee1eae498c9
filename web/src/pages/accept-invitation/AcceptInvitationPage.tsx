/**
 * Accept an invitation (`/accept-invitation?token=…`, the link an owner copied from Settings →
 * Members). Outside the shell, like the sign-in page.
 *
 * - Signed in: the workspace and the role, "Accept invitation" (acceptInvitation), then the dashboard
 *   switches into that workspace (selectWorkspace, and the browser's choice: relay/workspace.ts).
 * - Signed out: the invitation is read with the token as its only credential (`x-invitation-token`,
 *   src/http/graphql/asker.ts); the person signs in (and comes back here), or creates an account with
 *   a password, which joins the workspace at once (POST /auth/sign-up/email with `invitationToken`).
 */
import { Component, Suspense, useEffect, useState, type ReactNode } from "react";
import { graphql } from "react-relay";
import { Link, useNavigate, useRevalidator, useSearchParams } from "react-router";
import type { AcceptInvitationPageQuery, AcceptInvitationPageQuery$data } from "../../__generated__/AcceptInvitationPageQuery.graphql";
import type { AcceptInvitationPageAcceptMutation } from "../../__generated__/AcceptInvitationPageAcceptMutation.graphql";
import type { AcceptInvitationPageSelectMutation } from "../../__generated__/AcceptInvitationPageSelectMutation.graphql";
import { paths } from "../../lib/paths";
import { useWorkspaceChoice } from "../../relay/workspace";
import { ErrorMessage } from "../../components/ErrorMessage";
import { Loading } from "../../components/Loading";
import { Time } from "../../components/Time";
import { signOut, signUpWithInvitation } from "../../lib/auth";
import { apiErrorOf } from "../../lib/errors";
import { AuthForm, NewPasswordFields, usePasswordForm } from "../../components/PasswordForm";
import { Outcome } from "../../components/Outcome";
import { useAction } from "../../relay/action";
import { useRouteQuery } from "../../relay/route-query";

const query = graphql`
  query AcceptInvitationPageQuery($token: String!) {
    viewer {
      id
      email
    }
    invitation(token: $token) {
      email
      role
      status
      expiresAt
      workspaceName
    }
  }
`;

const accept = graphql`
  mutation AcceptInvitationPageAcceptMutation($token: String!) {
    acceptInvitation(token: $token) {
      id
      name
      role
    }
  }
`;

const select = graphql`
  mutation AcceptInvitationPageSelectMutation($id: ID!) {
    selectWorkspace(id: $id) {
      id
    }
  }
`;

const roleWords = (role: string) => (role === "OWNER" ? "an owner" : "a member");

export default function AcceptInvitationPage() {
  const [params] = useSearchParams();
  const token = params.get("token");
  const { revalidate } = useRevalidator();
  // After signing out here, or to try again: the route reads the invitation again (app/routes.tsx).
  const [attempt, setAttempt] = useState(0);
  const again = () => void revalidate().then(() => setAttempt((a) => a + 1));
  useEffect(() => {
    document.title = "Accept an invitation · Video tracker";
  }, []);
  return (
    <main id="main" className="sign-in accept-invitation">
      <h1>Accept an invitation</h1>
      {!token ? (
        <p className="notice notice-error" role="alert">
          This link is incomplete: it has no invitation token. Open the whole link you were sent, or ask the owner who invited you for it
          again.
        </p>
      ) : (
        <LinkProblems key={`${token}-${attempt}`} token={token} onRetry={again}>
          <Suspense fallback={<Loading what="Reading the invitation" />}>
            <Invitation token={token} onChanged={again} />
          </Suspense>
        </LinkProblems>
      )}
    </main>
  );
}

/**
 * Signed out with a token that opens no invitation, the service answers UNAUTHORIZED: here that
 * means a bad link, not "sign in" (the shell's boundary would send the person to the sign-in page).
 */
class LinkProblems extends Component<{ token: string; onRetry: () => void; children: ReactNode }, { error: unknown }> {
  state = { error: null as unknown };
  static getDerivedStateFromError(error: unknown) {
    return { error };
  }
  render() {
    const { error } = this.state;
    if (error === null) return this.props.children;
    if (apiErrorOf(error)?.code === "UNAUTHORIZED") {
      return (
        <>
          <p className="notice notice-error" role="alert">
            This link does not open an invitation: it may be cut short or mistyped, or it was revoked. Ask the owner who invited you for a
            new one.
          </p>
          <p className="muted">
            Have an account already? <Link to={paths.signIn(paths.acceptInvitation(this.props.token))}>Sign in</Link>.
          </p>
        </>
      );
    }
    return <ErrorMessage error={error} title="Could not read the invitation" onRetry={this.props.onRetry} />;
  }
}

function Invitation({ token, onChanged }: { token: string; onChanged: () => void }) {
  const data = useRouteQuery<AcceptInvitationPageQuery>(query);
  const invitation = data.invitation;
  if (!invitation) {
    return (
      <p className="notice notice-error" role="alert">
        This link does not open an invitation: it may be cut short or mistyped. Ask the owner who invited you for a new one.
      </p>
    );
  }
  if (invitation.status !== "PENDING") {
    const why =
      invitation.status === "ACCEPTED"
        ? "was used already"
        : invitation.status === "REVOKED"
          ? "was revoked"
          : "has expired (after 7 days)";
    return (
      <>
        <p className="notice notice-error" role="alert">
          This invitation to {invitation.workspaceName} {why}. Ask an owner of the workspace for a new one.
        </p>
        <p>
          <Link to={paths.overview()}>Go to the dashboard</Link>
        </p>
      </>
    );
  }
  return (
    <>
      <div className="panel">
        <p className="invitation-summary">
          You are invited to join <strong>{invitation.workspaceName}</strong> as <strong>{roleWords(invitation.role)}</strong>.
        </p>
        <p className="muted">
          For {invitation.email}; the link works once, until <Time value={invitation.expiresAt} />.
        </p>
      </div>
      {data.viewer ? (
        <SignedInAccept token={token} invitation={invitation} viewer={data.viewer} onSignedOut={onChanged} />
      ) : (
        <SignedOut token={token} email={invitation.email} />
      )}
    </>
  );
}

type Data = AcceptInvitationPageQuery$data;

function SignedInAccept({
  token,
  invitation,
  viewer,
  onSignedOut,
}: {
  token: string;
  invitation: NonNullable<Data["invitation"]>;
  viewer: NonNullable<Data["viewer"]>;
  onSignedOut: () => void;
}) {
  const navigate = useNavigate();
  const { chooseWorkspace, startOver } = useWorkspaceChoice();
  const acceptAction = useAction<AcceptInvitationPageAcceptMutation>(accept);
  const selectAction = useAction<AcceptInvitationPageSelectMutation>(select);
  const accepting = acceptAction.pending;
  const selecting = selectAction.pending;

  async function join() {
    const joined = await acceptAction.run({ token }, { failed: "Could not accept the invitation" });
    if (!joined) return;
    const id = joined.acceptInvitation.id;
    if (!(await selectAction.run({ id }, { failed: "Could not accept the invitation" }))) return;
    chooseWorkspace(id);
    navigate(paths.overview(), { replace: true });
  }

  async function switchPerson() {
    await signOut().catch(() => undefined);
    startOver();
    onSignedOut();
  }

  if (viewer.email.toLowerCase() !== invitation.email.toLowerCase()) {
    return (
      <>
        <p className="notice notice-error" role="alert">
          This invitation is for {invitation.email}, and you are signed in as {viewer.email}. Sign out, then sign in as {invitation.email}{" "}
          (or create that account) to accept it.
        </p>
        <button type="button" onClick={() => void switchPerson()}>
          Sign out
        </button>
      </>
    );
  }
  return (
    <>
      <p>Signed in as {viewer.email}.</p>
      <div className="row">
        <button type="button" className="button-primary" onClick={() => void join()} disabled={accepting || selecting}>
          Accept invitation
        </button>
        <Link to={paths.overview()}>Not now</Link>
      </div>
      {(accepting || selecting) && <Loading what="Joining the workspace" />}
      <Outcome outcome={acceptAction.outcome ?? selectAction.outcome} />
    </>
  );
}

function SignedOut({ token, email }: { token: string; email: string }) {
  const navigate = useNavigate();
  const { startOver } = useWorkspaceChoice();
  const signInLink = paths.signIn(paths.acceptInvitation(token));
  const form = usePasswordForm(
    async (fields) => {
      await signUpWithInvitation({
        email,
        password: String(fields.get("password")),
        name: String(fields.get("name")).trim(),
        invitationToken: token,
      });
      // Signed in, and a member of the workspace: its dashboard, with a fresh store.
      startOver();
      navigate(paths.overview(), { replace: true });
    },
    ({ code, message }) =>
      code === "EMAIL_TAKEN" ? (
        <>
          There is an account for {email} already: <Link to={signInLink}>sign in</Link> to accept the invitation.
        </>
      ) : (
        message
      ),
  );

  return (
    <>
      <h2>Have an account?</h2>
      <p>
        <Link to={signInLink}>Sign in as {email}</Link>: you come back here to accept.
      </p>
      <h2>New here? Create your account</h2>
      <AuthForm form={form} action="Create account and join">
        <label htmlFor="invite-email">Email</label>
        <input id="invite-email" name="email" type="email" value={email} readOnly autoComplete="username" />
        <label htmlFor="invite-name">Your name</label>
        <input id="invite-name" name="name" autoComplete="name" required maxLength={100} />
        <NewPasswordFields idPrefix="invite-" />
      </AuthForm>
    </>
  );
}
