/**
 * Creators: the people or teams behind tracked accounts (name, contact, notes), by name, page by page; a
 * form that creates one; each creator's edit form and accounts (assign any tracked account, found by words
 * with pickers/AccountChoice.tsx; take one away). An account belongs to at most one creator in a workspace:
 * the server refuses another creator's account, and the refusal is said in words.
 */
import { useState, type FormEvent } from "react";
import { graphql } from "react-relay";
import { Link, useRevalidator } from "react-router";
import type { CreatorsPageQuery } from "../../__generated__/CreatorsPageQuery.graphql";
import type { AccountChoice_query$key } from "../../__generated__/AccountChoice_query.graphql";
import type { CreatorsPage_query$data, CreatorsPage_query$key } from "../../__generated__/CreatorsPage_query.graphql";
import type { CreatorsPagePaginationQuery } from "../../__generated__/CreatorsPagePaginationQuery.graphql";
import type { CreatorsPageCreateMutation } from "../../__generated__/CreatorsPageCreateMutation.graphql";
import type { CreatorsPageUpdateMutation } from "../../__generated__/CreatorsPageUpdateMutation.graphql";
import type { CreatorsPageAssignMutation } from "../../__generated__/CreatorsPageAssignMutation.graphql";
import type { CreatorsPageUnassignMutation } from "../../__generated__/CreatorsPageUnassignMutation.graphql";
import { paths } from "../../lib/paths";
import { EmptyState } from "../../components/EmptyState";
import { Outcome } from "../../components/Outcome";
import { PagedList } from "../../components/PagedList";
import { PageHeader } from "../../components/PageHeader";
import { accountName, formatWhole } from "../../lib/format";
import { AccountChoice } from "../../pickers/AccountChoice";
import { perItem, useAction } from "../../relay/action";
import { usePagedConnection } from "../../relay/paged";
import { useRouteQuery } from "../../relay/route-query";
import { Submit } from "../../components/Submit";
import { Panel } from "../../components/Panel";

const query = graphql`
  query CreatorsPageQuery {
    ...CreatorsPage_query
    ...AccountChoice_query
  }
`;

const fragment = graphql`
  fragment CreatorsPage_query on Query
  @refetchable(queryName: "CreatorsPagePaginationQuery")
  @argumentDefinitions(first: { type: "Int", defaultValue: 50 }, after: { type: "String" }) {
    creators(first: $first, after: $after) @connection(key: "CreatorsPage_creators") {
      __id
      totalCount
      edges {
        node {
          ...CreatorsPage_creator @relay(mask: false)
        }
      }
    }
  }
`;

// The fields of a creator's item; saving it answers with the same, so the item shows the server's answer whole.
// eslint-disable-next-line @typescript-eslint/no-unused-expressions -- relay-compiler only needs the tag (spread with @relay(mask: false))
graphql`
  fragment CreatorsPage_creator on Creator {
    id
    uuid
    name
    contact
    notes
    accounts {
      id
      uuid
      username
      displayName
    }
  }
`;

const createMutation = graphql`
  mutation CreatorsPageCreateMutation($name: String!, $contact: String, $notes: String) {
    createCreator(name: $name, contact: $contact, notes: $notes) {
      id
      name
    }
  }
`;
const updateMutation = graphql`
  mutation CreatorsPageUpdateMutation($id: ID!, $name: String, $contact: String, $notes: String) {
    updateCreator(id: $id, name: $name, contact: $contact, notes: $notes) {
      ...CreatorsPage_creator @relay(mask: false)
    }
  }
`;
const assignMutation = graphql`
  mutation CreatorsPageAssignMutation($creatorId: ID!, $accountIds: [ID!]!) {
    assignCreatorAccounts(creatorId: $creatorId, accountIds: $accountIds) {
      ...action_bulkItem @relay(mask: false)
    }
  }
`;
const unassignMutation = graphql`
  mutation CreatorsPageUnassignMutation($creatorId: ID!, $accountIds: [ID!]!) {
    unassignCreatorAccounts(creatorId: $creatorId, accountIds: $accountIds)
  }
`;

type Creator = CreatorsPage_query$data["creators"]["edges"][number]["node"];
type Accounts = AccountChoice_query$key;

export default function CreatorsPage() {
  const data = useRouteQuery<CreatorsPageQuery>(query);
  const { revalidate } = useRevalidator();
  const reload = () => void revalidate();
  return (
    <>
      <PageHeader title="Creators">
        <Link to={paths.campaigns()}>Campaigns</Link>
      </PageHeader>
      <CreateCreatorForm onCreated={reload} />
      <CreatorList query={data} accounts={data} onChanged={reload} />
    </>
  );
}

/** What a person writes of a creator, in the add and the edit form alike. */
interface CreatorInput {
  name: string;
  contact: string;
  notes: string;
}
const NO_CREATOR: CreatorInput = { name: "", contact: "", notes: "" };

function CreatorFields({ value, onChange }: { value: CreatorInput; onChange: (value: CreatorInput) => void }) {
  const set = (part: Partial<CreatorInput>) => onChange({ ...value, ...part });
  return (
    <>
      <div className="row">
        <label>
          Name
          <input type="text" value={value.name} maxLength={100} required onChange={(e) => set({ name: e.target.value })} />
        </label>
        <label>
          Contact
          <input
            type="text"
            value={value.contact}
            maxLength={200}
            placeholder="email, handle …"
            onChange={(e) => set({ contact: e.target.value })}
          />
        </label>
      </div>
      <label>
        Notes
        <textarea value={value.notes} maxLength={2000} rows={2} onChange={(e) => set({ notes: e.target.value })} />
      </label>
    </>
  );
}

function CreateCreatorForm({ onCreated }: { onCreated: () => void }) {
  const [input, setInput] = useState(NO_CREATOR);
  const create = useAction<CreatorsPageCreateMutation>(createMutation);
  async function submit(event: FormEvent) {
    event.preventDefault();
    const r = await create.run(input, {
      failed: "Could not create the creator",
      done: (d) => `Created the creator “${d.createCreator.name}”.`,
    });
    if (r) {
      setInput(NO_CREATOR);
      onCreated();
    }
  }
  return (
    <Panel title="Add a creator">
      <form className="stacked-form" onSubmit={(e) => void submit(e)}>
        <CreatorFields value={input} onChange={setInput} />
        <div className="row">
          <Submit action={create}>Add creator</Submit>
        </div>
      </form>
      <Outcome outcome={create.outcome} />
    </Panel>
  );
}

function CreatorList({ query, accounts, onChanged }: { query: CreatorsPage_query$key; accounts: Accounts; onChanged: () => void }) {
  const { rows, paging } = usePagedConnection<CreatorsPagePaginationQuery, CreatorsPage_query$key, Creator>(
    fragment,
    query,
    (d) => d.creators,
    "creators",
  );
  return (
    <Panel title={<>Your creators ({formatWhole(paging.total)})</>}>
      <PagedList
        label="Creators, by name"
        rows={rows}
        itemProps={(c) => ({ "data-creator": c.name })}
        item={(c) => <CreatorItem creator={c} accounts={accounts} onChanged={onChanged} />}
        paging={paging}
        empty={
          <EmptyState title="No creators yet.">
            Add one with the form above, then give them their tracked accounts; a campaign then pays them for those accounts' videos.
          </EmptyState>
        }
      />
    </Panel>
  );
}

function CreatorItem({ creator: c, accounts, onChanged }: { creator: Creator; accounts: Accounts; onChanged: () => void }) {
  const [editing, setEditing] = useState(false);
  const [input, setInput] = useState<CreatorInput>({ name: c.name, contact: c.contact, notes: c.notes });
  const save = useAction<CreatorsPageUpdateMutation>(updateMutation);
  const assign = useAction<CreatorsPageAssignMutation>(assignMutation);
  const unassign = useAction<CreatorsPageUnassignMutation>(unassignMutation);
  const own = new Set(c.accounts.map((a) => a?.id));
  const headingId = `creator-${c.uuid}`;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const r = await save.run(
      { id: c.id, ...input },
      { failed: `Could not save ${c.name}`, done: (d) => `Saved “${d.updateCreator.name}”.` },
    );
    if (r) setEditing(false);
  }

  async function give(id: string) {
    unassign.clear();
    const title = `Could not give the account to ${c.name}`;
    const advice = "An account belongs to at most one creator: take it from the other creator first.";
    const r = await assign.run(
      { creatorId: c.id, accountIds: [id] },
      { failed: title, done: (d) => perItem(d.assignCreatorAccounts, () => `Gave the account to ${c.name}.`, title, advice) },
    );
    if (r) onChanged();
  }

  async function take(a: NonNullable<Creator["accounts"][number]>) {
    assign.clear();
    const r = await unassign.run(
      { creatorId: c.id, accountIds: [a.id] },
      { failed: `Could not take @${a.username} from ${c.name}`, done: () => `Took @${a.username} from ${c.name}.` },
    );
    if (r) onChanged();
  }

  return (
    <>
      <h3 id={headingId}>{c.name}</h3>
      {editing ? (
        <form className="stacked-form" onSubmit={(e) => void submit(e)}>
          <CreatorFields value={input} onChange={setInput} />
          <div className="row">
            <Submit action={save}>Save</Submit>
            <button type="button" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <>
          <p>
            {c.contact ? <>Contact: {c.contact}</> : <span className="muted">No contact</span>}
            {c.notes && (
              <>
                <br />
                <span className="muted">{c.notes}</span>
              </>
            )}
          </p>
          <button type="button" onClick={() => setEditing(true)} aria-label={`Edit ${c.name}`}>
            Edit
          </button>
        </>
      )}
      <h4>Accounts</h4>
      {c.accounts.length === 0 ? (
        <p className="muted">No account yet.</p>
      ) : (
        <ul className="plain-list">
          {c.accounts.map((a, i) =>
            a ? (
              <li key={a.id} className="row">
                <Link to={paths.account(a.uuid)}>{accountName(a)}</Link>
                <button
                  type="button"
                  disabled={unassign.pending}
                  onClick={() => void take(a)}
                  aria-label={`Take away @${a.username} from ${c.name}`}
                >
                  Take away
                </button>
              </li>
            ) : (
              <li key={i} className="muted">
                An account the workspace no longer tracks
              </li>
            ),
          )}
        </ul>
      )}
      <AccountChoice
        query={accounts}
        label={`Tracked account for ${c.name}`}
        unavailable={(a) => (own.has(a.id) ? `${c.name}'s already` : undefined)}
        empty={null}
      >
        {(a) => (
          <button type="button" disabled={!a || assign.pending} onClick={() => a && void give(a.id)}>
            Assign account
          </button>
        )}
      </AccountChoice>
      <Outcome outcome={save.outcome} />
      <Outcome outcome={assign.outcome} />
      <Outcome outcome={unassign.outcome} />
    </>
  );
}
