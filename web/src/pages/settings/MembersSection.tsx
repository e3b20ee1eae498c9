/**
 * Members and invitations. Everyone sees the members; owners also invite by email and role (the
 * accept link is shown to copy: the service sends no email), see the invitations and revoke pending
 * ones, change a member's role and remove a member. LAST_OWNER and the other refusals are the
 * server's, shown in words.
 */
import { useState, type FormEvent } from "react";
import { graphql } from "react-relay";
import type { MembersSectionMembersPaginationQuery } from "../../__generated__/MembersSectionMembersPaginationQuery.graphql";
import type { MembersSection_members$data, MembersSection_members$key } from "../../__generated__/MembersSection_members.graphql";
import type { MembersSectionInvitationsPaginationQuery } from "../../__generated__/MembersSectionInvitationsPaginationQuery.graphql";
import type {
  MembersSection_invitations$data,
  MembersSection_invitations$key,
} from "../../__generated__/MembersSection_invitations.graphql";
import type { MembersSectionInviteMutation, WorkspaceRole } from "../../__generated__/MembersSectionInviteMutation.graphql";
import type { MembersSectionRevokeMutation } from "../../__generated__/MembersSectionRevokeMutation.graphql";
import type { MembersSectionRoleMutation } from "../../__generated__/MembersSectionRoleMutation.graphql";
import type { MembersSectionRemoveMutation } from "../../__generated__/MembersSectionRemoveMutation.graphql";
import type { MembersSectionLeaveMutation } from "../../__generated__/MembersSectionLeaveMutation.graphql";
import { useNavigate } from "react-router";
import { paths } from "../../lib/paths";
import { useWorkspaceChoice } from "../../relay/workspace";
import { Badge } from "../../components/Badge";
import { ConfirmButton } from "../../components/ConfirmButton";
import { actionsColumn, DataTable, type Column } from "../../components/DataTable";
import { EmptyState } from "../../components/EmptyState";
import { Outcome } from "../../components/Outcome";
import { Time } from "../../components/Time";
import { humanize } from "../../lib/format";
import { useAction } from "../../relay/action";
import { ShownOnce } from "./ShownOnce";
import { Submit } from "../../components/Submit";
import { Panel } from "../../components/Panel";
import { useRouteConnection } from "../../relay/paged";

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
          ...MembersSection_invitation @relay(mask: false)
        }
      }
    }
  }
`;

// The fields of an invitation row; the invite mutation asks for the same, so the new row is complete at once.
// eslint-disable-next-line @typescript-eslint/no-unused-expressions -- relay-compiler only needs the tag (spread with @relay(mask: false))
graphql`
  fragment MembersSection_invitation on Invitation {
    id
    email
    role
    status
    invitedBy
    createdAt
    expiresAt
  }
`;

const invite = graphql`
  mutation MembersSectionInviteMutation($email: String!, $role: WorkspaceRole!, $connections: [ID!]!) {
    createInvitation(email: $email, role: $role) {
      acceptUrl
      invitation @prependNode(connections: $connections, edgeTypeName: "InvitationEdge") {
        ...MembersSection_invitation @relay(mask: false)
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

export function MembersSection({ isOwner, viewerId }: { isOwner: boolean; viewerId: string | null }) {
  return (
    <>
      <Members isOwner={isOwner} viewerId={viewerId} />
      {isOwner ? <Invitations /> : <p className="muted">Owners invite people and change roles; ask one of the owners above.</p>}
      <LeaveWorkspace />
    </>
  );
}

type Member = MembersSection_members$data["members"]["edges"][number]["node"];
type Invitation = MembersSection_invitations$data["invitations"]["edges"][number]["node"];

function Members({ isOwner, viewerId }: { isOwner: boolean; viewerId: string | null }) {
  const { data, rows, paging } = useRouteConnection<MembersSectionMembersPaginationQuery, MembersSection_members$key, Member>(
    membersQuery,
    membersFragment,
    (d) => d.members,
    "members",
  );
  const setRole = useAction<MembersSectionRoleMutation>(changeRole);
  const remove = useAction<MembersSectionRemoveMutation>(removeMember);

  function roleChange(m: Member, who: string, role: WorkspaceRole) {
    remove.clear();
    void setRole.run(
      { id: m.id, role },
      {
        optimisticResponse: { changeMemberRole: { id: m.id, role } },
        done: () => `${who} is now ${role === "OWNER" ? "an owner" : "a member"}.`,
        failed: `Could not change the role of ${who}`,
      },
    );
  }

  function doRemove(id: string, who: string) {
    setRole.clear();
    const connections = [data.members.__id];
    void remove.run({ id, connections }, { done: () => `Removed ${who} from the workspace.`, failed: `Could not remove ${who}` });
  }

  const columns: Column<Member>[] = [
    {
      id: "name",
      header: "Name",
      className: "cell-wrap",
      cell: (m) => (
        <>
          {m.name || "—"} {m.userId === viewerId && <Badge tone="info">You</Badge>}
        </>
      ),
    },
    { id: "email", header: "Email", className: "cell-wrap", cell: (m) => m.email },
    {
      id: "role",
      header: "Role",
      cell: (m) =>
        isOwner ? (
          <label>
            <span className="visually-hidden">Role of {m.name || m.email}</span>
            <select
              value={m.role}
              disabled={setRole.pending}
              onChange={(e) => roleChange(m, m.name || m.email, e.target.value as WorkspaceRole)}
            >
              {ROLES.map((r) => (
                <option key={r.value} value={r.value}>
                  {r.label}
                </option>
              ))}
            </select>
          </label>
        ) : (
          roleName(m.role)
        ),
    },
    { id: "joined", header: "Joined", cell: (m) => <Time value={m.joinedAt} /> },
  ];
  if (isOwner) {
    // Leaving a workspace is not offered here: an owner removes the others.
    columns.push(
      actionsColumn(
        (m) =>
          m.userId !== viewerId && (
            <ConfirmButton
              question={`Remove ${m.name || m.email} from this workspace? They lose access to it at once.`}
              confirmLabel="Remove member"
              onConfirm={() => doRemove(m.id, m.name || m.email)}
              disabled={remove.pending}
            >
              Remove<span className="visually-hidden"> {m.name || m.email}</span>
            </ConfirmButton>
          ),
      ),
    );
  }

  return (
    <Panel title="Members">
      <Outcome outcome={setRole.outcome} />
      <Outcome outcome={remove.outcome} />
      {/* The person reading it is a member: never empty. */}
      <DataTable label="Members of this workspace" columns={columns} rows={rows} paging={paging} empty={null} />
    </Panel>
  );
}

function Invitations() {
  const { data, rows, paging } = useRouteConnection<MembersSectionInvitationsPaginationQuery, MembersSection_invitations$key, Invitation>(
    invitationsQuery,
    invitationsFragment,
    (d) => d.invitations,
    "invitations",
  );
  const create = useAction<MembersSectionInviteMutation>(invite);
  const revoke = useAction<MembersSectionRevokeMutation>(revokeInvitation);
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<WorkspaceRole>("MEMBER");
  const [link, setLink] = useState<{ email: string; url: string } | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    revoke.clear();
    const connections = [data.invitations.__id];
    const r = await create.run({ email: email.trim(), role, connections }, { failed: "Could not invite" });
    if (!r) return;
    setLink({ email: r.createInvitation.invitation.email, url: r.createInvitation.acceptUrl });
    setEmail("");
  }

  function doRevoke(i: Invitation) {
    create.clear();
    // Shown revoked at once; back to pending if the server refuses.
    void revoke.run(
      { id: i.id },
      {
        optimisticResponse: { revokeInvitation: { id: i.id, status: "REVOKED" } },
        done: () => `Revoked the invitation for ${i.email}: its link no longer works.`,
        failed: "Could not revoke the invitation",
      },
    );
  }

  const columns: Column<Invitation>[] = [
    { id: "email", header: "Email", className: "cell-wrap", cell: (i) => i.email },
    { id: "role", header: "Role", cell: (i) => roleName(i.role) },
    {
      id: "status",
      header: "Status",
      cell: (i) => (
        <Badge tone={i.status === "PENDING" ? "info" : i.status === "ACCEPTED" ? "success" : "neutral"}>{humanize(i.status)}</Badge>
      ),
    },
    { id: "by", header: "Invited by", className: "cell-wrap", cell: (i) => i.invitedBy ?? "—" },
    { id: "sent", header: "Sent", cell: (i) => <Time value={i.createdAt} /> },
    { id: "expires", header: "Expires", cell: (i) => (i.status === "PENDING" ? <Time value={i.expiresAt} /> : "—") },
    actionsColumn(
      (i) =>
        i.status === "PENDING" && (
          <ConfirmButton
            question={`Revoke the invitation for ${i.email}? Its link stops working.`}
            confirmLabel="Revoke invitation"
            onConfirm={() => doRevoke(i)}
            disabled={revoke.pending}
          >
            Revoke<span className="visually-hidden"> the invitation for {i.email}</span>
          </ConfirmButton>
        ),
    ),
  ];

  return (
    <Panel title="Invitations">
      <form className="row settings-form" onSubmit={submit}>
        <div className="field">
          <label htmlFor="invitation-email">Email to invite</label>
          <input
            id="invitation-email"
            type="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
            required
            autoComplete="off"
            placeholder="name@example.com"
          />
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
        <Submit action={create}>Invite</Submit>
      </form>
      {link && (
        <ShownOnce
          title={`Invitation link for ${link.email}`}
          value={link.url}
          note={`An invitation mail with this link is on its way to ${link.email}; you may also send the link yourself. It works once, for that email only, for 7 days.`}
          onDone={() => setLink(null)}
        />
      )}
      <Outcome outcome={create.outcome} />
      <Outcome outcome={revoke.outcome} />
      <DataTable
        label="Invitations of this workspace, newest first"
        columns={columns}
        rows={rows}
        empty={
          <EmptyState title="No invitations yet.">Enter the email of the person to invite, choose their role and press Invite.</EmptyState>
        }
        paging={paging}
      />
    </Panel>
  );
}

const leave = graphql`
  mutation MembersSectionLeaveMutation {
    leaveWorkspace
  }
`;

/** The viewer leaves this workspace (the last owner cannot: the server says so); then the dashboard starts over in another. */
function LeaveWorkspace() {
  const action = useAction<MembersSectionLeaveMutation>(leave);
  const { startOver } = useWorkspaceChoice();
  const navigate = useNavigate();
  async function go() {
    if (await action.run({}, { done: () => null, failed: "Could not leave the workspace" })) {
      startOver();
      navigate(paths.overview(), { replace: true });
    }
  }
  return (
    <Panel title="Leave this workspace">
      <p className="muted">You lose access to its videos, folders and settings at once; an owner can invite you again.</p>
      <Outcome outcome={action.outcome} />
      <ConfirmButton
        question="Leave this workspace? You lose access at once."
        confirmLabel="Leave it"
        onConfirm={() => void go()}
        disabled={action.pending}
      >
        Leave workspace
      </ConfirmButton>
    </Panel>
  );
}
