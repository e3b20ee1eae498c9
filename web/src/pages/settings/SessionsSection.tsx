/**
 * Your sessions: every browser signed in as you (device, address, last activity), which one is this
 * one, and "Sign out" of any other (revokeSession: that browser is signed out at once, its live
 * updates end). This browser signs out with the header's Sign out.
 */
import { graphql } from "react-relay";
import { useRevalidator } from "react-router";
import type { SessionsSectionQuery, SessionsSectionQuery$data } from "../../__generated__/SessionsSectionQuery.graphql";
import type { SessionsSectionRevokeMutation } from "../../__generated__/SessionsSectionRevokeMutation.graphql";
import { Badge } from "../../components/Badge";
import { ConfirmButton } from "../../components/ConfirmButton";
import { actionsColumn, DataTable, type Column } from "../../components/DataTable";
import { Outcome } from "../../components/Outcome";
import { Time } from "../../components/Time";
import { formatExact } from "../../lib/format";
import { useAction } from "../../relay/action";
import { useRouteQuery } from "../../relay/route-query";
import { describeDevice } from "./device";
import { Panel } from "../../components/Panel";

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
      }
    }
  }
`;

const revokeMutation = graphql`
  mutation SessionsSectionRevokeMutation($id: ID!) {
    revokeSession(id: $id)
  }
`;

type Session = NonNullable<SessionsSectionQuery$data["viewer"]>["sessions"][number];

export function SessionsSection() {
  const data = useRouteQuery<SessionsSectionQuery>(query);
  const sessions = data.viewer?.sessions ?? [];
  const revoke = useAction<SessionsSectionRevokeMutation>(revokeMutation);
  const { revalidate } = useRevalidator();

  async function signOut(s: Session, device: string) {
    // Then the list is read again, this one staying on screen meanwhile.
    if (await revoke.run({ id: s.id }, { done: () => `Signed out ${device}.`, failed: "Could not sign that session out" }))
      void revalidate();
  }

  const columns: Column<Session>[] = [
    {
      id: "device",
      header: "Device",
      className: "cell-wrap",
      cell: (s) => (
        <>
          <span title={s.userAgent ?? undefined}>{describeDevice(s.userAgent)}</span> {s.current && <Badge tone="info">This session</Badge>}
        </>
      ),
    },
    { id: "ip", header: "IP address", cell: (s) => s.ipAddress ?? "—" },
    { id: "active", header: "Last active", cell: (s) => <Time value={s.lastActiveAt} fallback="—" /> },
    { id: "signed-in", header: "Signed in", cell: (s) => <Time value={s.createdAt} /> },
    actionsColumn((s) => {
      const device = describeDevice(s.userAgent);
      return s.current ? (
        <span className="muted">Sign out at the top of the page</span>
      ) : (
        <ConfirmButton
          question={`Sign out ${device} (last active ${s.lastActiveAt ? formatExact(s.lastActiveAt) : "unknown"})? That browser has to sign in again.`}
          confirmLabel="Sign it out"
          onConfirm={() => void signOut(s, device)}
          disabled={revoke.pending}
        >
          Sign out
          <span className="visually-hidden">
            {" "}
            {device}, {s.ipAddress ?? "unknown address"}
          </span>
        </ConfirmButton>
      );
    }),
  ];

  return (
    <Panel title="Your sessions">
      <p className="muted">
        Every browser signed in as you. A session ends after 7 days without use, and 30 days after signing in at the latest. Sign out of one
        you do not recognise, then change your password.
      </p>
      <Outcome outcome={revoke.outcome} />
      <DataTable
        label="Your signed-in sessions, newest first"
        columns={columns}
        rows={sessions}
        rowProps={(s) => ({ "aria-current": s.current ? "true" : undefined })}
        // This session is one of them: never empty.
        empty={null}
      />
    </Panel>
  );
}
