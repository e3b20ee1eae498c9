/**
 * Members and invitations. Everyone sees the members; owners also invite by email and role (the
 * accept link is shown to copy: the service sends no email), see the invitations and revoke pending
 * ones, change a member's role and remove a member. LAST_OWNER and the other refusals are the
 * server's, shown in words.
 */
import { useState, type FormEvent } from "react";
import { graphql } from "react-relay";
import type { MembersSectionMembersPaginationQuery } from "../../__generated__/MembersSectionMembersPaginationQuery.graphql";
import type { MembersSection_members$key } from "../../__generated__/MembersSection_members.graphql";
import type { MembersSectionInvitationsPaginationQuery } from "../../__generated__/MembersSectionInvitationsPaginationQuery.graphql";
import type { MembersSection_invitations$key } from "../../__generated__/MembersSection_invitations.graphql";
import type { MembersSectionInviteMutation, WorkspaceRole } from "../../__generated__/MembersSectionInviteMutation.graphql";
import type { MembersSectionRevokeMutation } from "../../__generated__/MembersSectionRevokeMutation.graphql";
import type { MembersSectionRoleMutation } from "../../__generated__/MembersSectionRoleMutation.graphql";
import type { MembersSectionRemoveMutation } from "../../__generated__/MembersSectionRemoveMutation.graphql";
import { Badge } from "../../components/Badge";
import { ConfirmButton } from "../../components/ConfirmButton";
import { EmptyState } from "../../components/EmptyState";
import { ErrorMessage } from "../../components/ErrorMessage";
import { Time } from "../../components/Time";
import { humanize } from "../../lib/format";
import { useMutationAsync } from "../../relay/mutations";
import { SettingsTable, useSettingsList } from "./SettingsTable";
import { ShownOnce } from "./ShownOnce";

const membersQuery = graphql`
  query MembersSectionQuery {
    ...MembersSection_members
  }
`;

const membersFragment = graphql`
  fragment MembersSection_members on Query
  @refetchable(queryName: "MembersSectionMembersPaginationQuery")
  @argumentDefinitions(first: { type: "Int", defaultValue: 100 }, after: { type: "String" }) {
    members(first: $first, after: $after) @connection(key: "MembersSection_members") {
      __id
      totalCount
      edges {
        node {
          id
          userId
          name
          email
          role
          joinedAt
        }
      }
    }
  }
`;

const invitationsQuery = graphql`
  query MembersSectionInvitationsQuery {
    ...MembersSection_invitations
  }
`;

const invitationsFragment = graphql`
  fragment MembersSection_invitations on Query
  @refetchable(queryName: "MembersSectionInvitationsPaginationQuery")
  @argumentDefinitions(first: { type: "Int", defaultValue: 50 }, after: { type: "String" }) {
    invitations(first: $first, after: $after) @connection(key: "MembersSection_invitations") {
      __id
      totalCount
      edges {
        node {
          id
          email
          role
          status
          invitedBy
          createdAt
          expiresAt
        }
      }
    }
  }
`;

const invite = graphql`
  mutation MembersSectionInviteMutation($email: String!, $role: WorkspaceRole!, $connections: [ID!]!) {
    createInvitation(email: $email, role: $role) {
      acceptUrl
      invitation @prependNode(connections: $connections, edgeTypeName: "InvitationEdge") {
        id
        email
        role
        status
        invitedBy
        createdAt
        expiresAt
      }
    }
  }
`;

const revokeInvitation = graphql`
  mutation MembersSectionRevokeMutation($id: ID!) {
    revokeInvitation(id: $id) {
      id
      status
    }
  }
`;

const changeRole = graphql`
  mutation MembersSectionRoleMutation($id: ID!, $role: WorkspaceRole!) {
    changeMemberRole(id: $id, role: $role) {
      id
      role
    }
  }
`;

const removeMember = graphql`
  mutation MembersSectionRemoveMutation($id: ID!, $connections: [ID!]!) {
    removeMember(id: $id) @deleteEdge(connections: $connections)
  }
`;

const ROLES: { value: WorkspaceRole; label: string }[] = [
  { value: "MEMBER", label: "Member" },
  { value: "OWNER", label: "Owner" },
];
const roleName = (role: string) => (role === "OWNER" ? "Owner" : "Member");

/** What an action answered, for the status line or the error box. */
type Outcome = { ok: string } | { title: string; error: unknown } | null;

export function MembersSection({ isOwner, viewerId }: { isOwner: boolean; viewerId: string | null }) {
  return (
    <>
      <Members isOwner={isOwner} viewerId={viewerId} />
      {isOwner ? (
        <Invitations />
      ) : (
        <p className="muted">Owners invite people and change roles; ask one of the owners above.</p>
      )}
    </>
  );
}

function OutcomeLine({ outcome }: { outcome: Outcome }) {
  if (!outcome) return null;
  if ("ok" in outcome)
    return (
      <p role="status" className="notice">
        {outcome.ok}
      </p>
    );
  return <ErrorMessage error={outcome.error} title={outcome.title} />;
}

function Members({ isOwner, viewerId }: { isOwner: boolean; viewerId: string | null }) {
  const { data, hasNext, loadNext, isLoadingNext } = useSettingsList<MembersSectionMembersPaginationQuery, MembersSection_members$key>(membersQuery, membersFragment);
  const members = data.members.edges.map((e) => e.node);
  const [setRole, settingRole] = useMutationAsync<MembersSectionRoleMutation>(changeRole);
  const [remove, removing] = useMutationAsync<MembersSectionRemoveMutation>(removeMember);
  const [outcome, setOutcome] = useState<Outcome>(null);

  async function roleChange(id: string, who: string, role: WorkspaceRole) {
    setOutcome(null);
    try {
      await setRole({ id, role });
      setOutcome({ ok: `${who} is now ${role === "OWNER" ? "an owner" : "a member"}.` });
    } catch (error) {
      setOutcome({ title: `Could not change the role of ${who}`, error });
    }
  }

  async function doRemove(id: string, who: string) {
    setOutcome(null);
    try {
      await remove({ id, connections: [data.members.__id] });
      setOutcome({ ok: `Removed ${who} from the workspace.` });
    } catch (error) {
      setOutcome({ title: `Could not remove ${who}`, error });
    }
  }

  return (
    <section aria-labelledby="members-heading" className="panel">
      <h2 id="members-heading">Members</h2>
      <OutcomeLine outcome={outcome} />
      <SettingsTable
        label="Members of this workspace"
        columns={["Name", "Email", "Role", "Joined"]}
        actions={isOwner}
        rows={members}
        row={(m) => {
          const who = m.name || m.email;
          const you = m.userId === viewerId;
          return (
            <tr key={m.id}>
              <td className="cell-wrap">
                {m.name || "—"} {you && <Badge tone="info">You</Badge>}
              </td>
              <td className="cell-wrap">{m.email}</td>
              <td>
                {isOwner ? (
                  <label>
                    <span className="visually-hidden">Role of {who}</span>
                    <select value={m.role} disabled={settingRole} onChange={(e) => void roleChange(m.id, who, e.target.value as WorkspaceRole)}>
                      {ROLES.map((r) => (
                        <option key={r.value} value={r.value}>
                          {r.label}
                        </option>
                      ))}
                    </select>
                  </label>
                ) : (
                  roleName(m.role)
                )}
              </td>
              <td>
                <Time value={m.joinedAt} />
              </td>
              {isOwner && (
                <td>
                  {/* Leaving a workspace is not offered here: an owner removes the others. */}
                  {!you && (
                    <ConfirmButton
                      question={`Remove ${who} from this workspace? They lose access to it at once.`}
                      confirmLabel="Remove member"
                      onConfirm={() => void doRemove(m.id, who)}
                      disabled={removing}
                    >
                      Remove<span className="visually-hidden"> {who}</span>
                    </ConfirmButton>
                  )}
                </td>
              )}
            </tr>
          );
        }}
        paging={{ hasNext, isLoadingNext, loadNext, pageSize: 100, total: data.members.totalCount, what: "members" }}
      />
    </section>
  );
}

function Invitations() {
  const { data, hasNext, loadNext, isLoadingNext } = useSettingsList<MembersSectionInvitationsPaginationQuery, MembersSection_invitations$key>(invitationsQuery, invitationsFragment);
  const invitations = data.invitations.edges.map((e) => e.node);
  const [createInvitation, inviting] = useMutationAsync<MembersSectionInviteMutation>(invite);
  const [revoke, revoking] = useMutationAsync<MembersSectionRevokeMutation>(revokeInvitation);
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<WorkspaceRole>("MEMBER");
  const [link, setLink] = useState<{ email: string; url: string } | null>(null);
  const [outcome, setOutcome] = useState<Outcome>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setOutcome(null);
    try {
      const r = await createInvitation({ email: email.trim(), role, connections: [data.invitations.__id] });
      setLink({ email: r.createInvitation.invitation.email, url: r.createInvitation.acceptUrl });
      setEmail("");
    } catch (error) {
      setOutcome({ title: "Could not invite", error });
    }
  }

  async function doRevoke(id: string, to: string) {
    setOutcome(null);
    try {
      await revoke({ id });
      setOutcome({ ok: `Revoked the invitation for ${to}: its link no longer works.` });
    } catch (error) {
      setOutcome({ title: "Could not revoke the invitation", error });
    }
  }

  return (
    <section aria-labelledby="invitations-heading" className="panel">
      <h2 id="invitations-heading">Invitations</h2>
      <form className="row settings-form" onSubmit={submit}>
        <div className="field">
          <label htmlFor="invitation-email">Email to invite</label>
          <input id="invitation-email" type="email" value={email} onChange={(e) => setEmail(e.target.value)} required autoComplete="off" placeholder="name@example.com" />
        </div>
        <div className="field">
          <label htmlFor="invitation-role">Role</label>
          <select id="invitation-role" value={role} onChange={(e) => setRole(e.target.value as WorkspaceRole)}>
            {ROLES.map((r) => (
              <option key={r.value} value={r.value}>
                {r.label}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className="button-primary" disabled={inviting}>
          Invite
        </button>
      </form>
      {link && (
        <ShownOnce
          title={`Invitation link for ${link.email}`}
          value={link.url}
          note={`No email is sent: send this link to ${link.email} yourself. It works once, for that email only, for 7 days.`}
          onDone={() => setLink(null)}
        />
      )}
      <OutcomeLine outcome={outcome} />
      <SettingsTable
        label="Invitations of this workspace, newest first"
        columns={["Email", "Role", "Status", "Invited by", "Sent", "Expires"]}
        actions
        rows={invitations}
        row={(i) => (
          <tr key={i.id}>
            <td className="cell-wrap">{i.email}</td>
            <td>{roleName(i.role)}</td>
            <td>
              <Badge tone={i.status === "PENDING" ? "info" : i.status === "ACCEPTED" ? "success" : "neutral"}>{humanize(i.status)}</Badge>
            </td>
            <td className="cell-wrap">{i.invitedBy ?? "—"}</td>
            <td>
              <Time value={i.createdAt} />
            </td>
            <td>{i.status === "PENDING" ? <Time value={i.expiresAt} /> : "—"}</td>
            <td>
              {i.status === "PENDING" && (
                <ConfirmButton
                  question={`Revoke the invitation for ${i.email}? Its link stops working.`}
                  confirmLabel="Revoke invitation"
                  onConfirm={() => void doRevoke(i.id, i.email)}
                  disabled={revoking}
                >
                  Revoke<span className="visually-hidden"> the invitation for {i.email}</span>
                </ConfirmButton>
              )}
            </td>
          </tr>
        )}
        empty={<EmptyState title="No invitations yet.">Enter the email of the person to invite, choose their role and press Invite.</EmptyState>}
        paging={{ hasNext, isLoadingNext, loadNext, pageSize: 50, total: data.invitations.totalCount, what: "invitations" }}
      />
    </section>
  );
}
