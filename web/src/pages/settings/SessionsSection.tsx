/**
 * Your sessions: every browser signed in as you (device, address, last activity), which one is this
 * one, and "Sign out" of any other (revokeSession: that browser is signed out at once, its live
 * updates end). This browser signs out with the header's Sign out.
 */
import { startTransition, useState } from "react";
import { graphql, useLazyLoadQuery } from "react-relay";
import type { SessionsSectionQuery } from "../../__generated__/SessionsSectionQuery.graphql";
import type { SessionsSectionRevokeMutation } from "../../__generated__/SessionsSectionRevokeMutation.graphql";
import { Badge } from "../../components/Badge";
import { ConfirmButton } from "../../components/ConfirmButton";
import { ErrorMessage } from "../../components/ErrorMessage";
import { Time } from "../../components/Time";
import { useMutationAsync } from "../../relay/mutations";
import { describeDevice } from "./device";
import { SettingsTable } from "./SettingsTable";

const query = graphql`
  query SessionsSectionQuery {
    viewer {
      sessions {
        id
        current
        userAgent
        ipAddress
        createdAt
        lastActiveAt
        expiresAt
      }
    }
  }
`;

const revoke = graphql`
  mutation SessionsSectionRevokeMutation($id: ID!) {
    revokeSession(id: $id)
  }
`;

export function SessionsSection() {
  const [fetchKey, setFetchKey] = useState(0);
  const data = useLazyLoadQuery<SessionsSectionQuery>(query, {}, { fetchPolicy: fetchKey ? "network-only" : "store-and-network", fetchKey });
  const sessions = data.viewer?.sessions ?? [];
  const [revokeSession, revoking] = useMutationAsync<SessionsSectionRevokeMutation>(revoke);
  const [outcome, setOutcome] = useState<{ ok: string } | { error: unknown } | null>(null);

  async function signOut(id: string, device: string) {
    setOutcome(null);
    try {
      await revokeSession({ id });
      setOutcome({ ok: `Signed out ${device}.` });
      // Read the list again, keeping this one on screen meanwhile.
      startTransition(() => setFetchKey((k) => k + 1));
    } catch (error) {
      setOutcome({ error });
    }
  }

  return (
    <section aria-labelledby="sessions-heading" className="panel">
      <h2 id="sessions-heading">Your sessions</h2>
      <p className="muted">
        Every browser signed in as you. A session ends after 7 days without use, and 30 days after signing in at the latest. Sign out of one you do
        not recognise, then change your password.
      </p>
      {outcome && "ok" in outcome && (
        <p role="status" className="notice">
          {outcome.ok}
        </p>
      )}
      {outcome && "error" in outcome && <ErrorMessage error={outcome.error} title="Could not sign that session out" />}
      <SettingsTable
        label="Your signed-in sessions, newest first"
        columns={["Device", "IP address", "Last active", "Signed in"]}
        actions
        rows={sessions}
        row={(s) => {
          const device = describeDevice(s.userAgent);
          return (
            <tr key={s.id} aria-current={s.current ? "true" : undefined}>
              <td className="cell-wrap">
                <span title={s.userAgent ?? undefined}>{device}</span> {s.current && <Badge tone="info">This session</Badge>}
              </td>
              <td>{s.ipAddress ?? "—"}</td>
              <td>
                <Time value={s.lastActiveAt} fallback="—" />
              </td>
              <td>
                <Time value={s.createdAt} />
              </td>
              <td>
                {s.current ? (
                  <span className="muted">Sign out at the top of the page</span>
                ) : (
                  <ConfirmButton
                    question={`Sign out ${device} (last active ${s.lastActiveAt ? new Date(s.lastActiveAt).toLocaleString() : "unknown"})? That browser has to sign in again.`}
                    confirmLabel="Sign it out"
                    onConfirm={() => void signOut(s.id, device)}
                    disabled={revoking}
                  >
                    Sign out<span className="visually-hidden"> {device}, {s.ipAddress ?? "unknown address"}</span>
                  </ConfirmButton>
                )}
              </td>
            </tr>
          );
        }}
      />
    </section>
  );
}
