/**
 * Campaigns: the workspace's campaigns (name, period in its own time zone, status, spend against
 * budget, how many creators or accounts take part), newest first, and the form that creates one
 * (owners only; a member sees the list read-only). A campaign's page holds the rest (./CampaignPage.tsx).
 */
import { useState, type FormEvent } from "react";
import { graphql } from "react-relay";
import { Link, useNavigate } from "react-router";
import type { CampaignsPageQuery } from "../../__generated__/CampaignsPageQuery.graphql";
import type { CampaignsPage_query$data, CampaignsPage_query$key } from "../../__generated__/CampaignsPage_query.graphql";
import type { CampaignsPagePaginationQuery } from "../../__generated__/CampaignsPagePaginationQuery.graphql";
import type { CampaignsPageCreateMutation } from "../../__generated__/CampaignsPageCreateMutation.graphql";
import { paths } from "../../lib/paths";
import { DataTable, type Column } from "../../components/DataTable";
import { EmptyState } from "../../components/EmptyState";
import { Outcome } from "../../components/Outcome";
import { PageHeader } from "../../components/PageHeader";
import { formatWhole, plural } from "../../lib/format";
import { refused, useAction, type ActionOutcome } from "../../relay/action";
import { usePagedConnection } from "../../relay/paged";
import { useRouteQuery } from "../../relay/route-query";
import { inputToMinor } from "./money";
import { CampaignStatusBadge, OwnersOnlyNote, Period } from "./parts";
import { SpendBar } from "./SpendBar";
import { RuleFields, emptyRule, ruleInput, type RuleText } from "./RuleFields";
import { Submit } from "../../components/Submit";
import { Panel } from "../../components/Panel";

const query = graphql`
  query CampaignsPageQuery {
    viewer {
      currentWorkspace {
        role
      }
    }
    ...CampaignsPage_query
    tags(first: 100) {
      edges {
        node {
          id
          name
        }
      }
    }
  }
`;

const fragment = graphql`
  fragment CampaignsPage_query on Query
  @refetchable(queryName: "CampaignsPagePaginationQuery")
  @argumentDefinitions(first: { type: "Int", defaultValue: 20 }, after: { type: "String" }) {
    campaigns(first: $first, after: $after) @connection(key: "CampaignsPage_campaigns") {
      __id
      totalCount
      edges {
        node {
          id
          uuid
          name
          startsAt
          endsAt
          timeZone
          status
          currency
          members {
            kind
          }
          totals {
            ...SpendBar_totals
          }
        }
      }
    }
  }
`;

const createMutation = graphql`
  mutation CampaignsPageCreateMutation($input: CampaignInput!) {
    createCampaign(input: $input) {
      id
      uuid
      name
    }
  }
`;

type Campaign = CampaignsPage_query$data["campaigns"]["edges"][number]["node"];

export default function CampaignsPage() {
  const data = useRouteQuery<CampaignsPageQuery>(query);
  const isOwner = data.viewer?.currentWorkspace?.role === "OWNER";
  return (
    <>
      <PageHeader title="Campaigns">
        <Link to={paths.creators()}>Creators</Link>
      </PageHeader>
      <CampaignList query={data} />
      {isOwner ? <CreateCampaignForm tags={data.tags.edges.map((e) => e.node)} /> : <OwnersOnlyNote what="create campaigns" />}
    </>
  );
}

function CampaignList({ query }: { query: CampaignsPage_query$key }) {
  const { rows, paging } = usePagedConnection<CampaignsPagePaginationQuery, CampaignsPage_query$key, Campaign>(
    fragment,
    query,
    (d) => d.campaigns,
    "campaigns",
  );
  const columns: Column<Campaign>[] = [
    { id: "name", header: "Name", className: "cell-wrap", cell: (c) => <Link to={paths.campaign(c.uuid)}>{c.name}</Link> },
    {
      id: "period",
      header: "Period",
      className: "cell-wrap",
      cell: (c) => <Period startsAt={c.startsAt} endsAt={c.endsAt} timeZone={c.timeZone} />,
    },
    { id: "status", header: "Status", cell: (c) => <CampaignStatusBadge status={c.status} /> },
    { id: "spend", header: "Spend against budget", className: "cell-wrap", cell: (c) => <SpendBar totals={c.totals} /> },
    {
      id: "members",
      header: "Creators",
      cell: (c) => {
        const creators = c.members.filter((m) => m.kind === "CREATOR").length;
        const accounts = c.members.length - creators;
        return [plural(creators, "creator"), accounts ? plural(accounts, "single account") : null].filter(Boolean).join(", ");
      },
    },
  ];
  return (
    <Panel title="Your campaigns">
      <DataTable
        label={`Campaigns, ${formatWhole(paging.total)} in all`}
        columns={columns}
        rows={rows}
        rowProps={(c) => ({ "data-campaign-id": c.uuid })}
        empty={
          <EmptyState title="No campaigns yet.">
            An owner creates one with the form below: a name, a period and a payout rule. Then add{" "}
            <Link to={paths.creators()}>creators</Link> or accounts on its page.
          </EmptyState>
        }
        paging={paging}
      />
    </Panel>
  );
}

const browserZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC";
const ZONES: string[] = (() => {
  try {
    return (Intl as unknown as { supportedValuesOf?: (k: string) => string[] }).supportedValuesOf?.("timeZone") ?? [];
  } catch {
    return [];
  }
})();

function CreateCampaignForm({ tags }: { tags: readonly { id: string; name: string }[] }) {
  const navigate = useNavigate();
  const [name, setName] = useState("");
  const [startsAt, setStartsAt] = useState("");
  const [endsAt, setEndsAt] = useState("");
  const [timeZone, setTimeZone] = useState(browserZone);
  const [currency, setCurrency] = useState("EUR");
  const [budget, setBudget] = useState("");
  const [hashtag, setHashtag] = useState("");
  const [tagId, setTagId] = useState("");
  const [rule, setRule] = useState<RuleText>(emptyRule);
  const create = useAction<CampaignsPageCreateMutation>(createMutation);
  const [invalid, setInvalid] = useState<ActionOutcome | null>(null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const cur = currency.trim().toUpperCase();
    const budgetMinor = inputToMinor(budget, cur);
    const amounts = ruleInput(rule, cur);
    create.clear();
    setInvalid(null);
    if (budgetMinor === undefined) return setInvalid(refused("Could not create the campaign", `The budget is not an amount of ${cur}.`));
    if (typeof amounts === "string") return setInvalid(refused("Could not create the campaign", amounts));
    const r = await create.run(
      {
        input: {
          name,
          startsAt,
          endsAt,
          timeZone,
          currency: cur,
          budgetMinor,
          hashtag: hashtag.trim() || null,
          tagId: tagId || null,
          ...amounts,
        },
      },
      { done: (d) => `Created the campaign “${d.createCampaign.name}”.`, failed: "Could not create the campaign" },
    );
    if (r) navigate(paths.campaign(r.createCampaign.uuid));
  }

  return (
    <Panel title="Create a campaign">
      <form className="campaign-form" onSubmit={(e) => void submit(e)}>
        <label>
          Campaign name
          <input type="text" value={name} maxLength={100} required onChange={(e) => setName(e.target.value)} />
        </label>
        <div className="row">
          <label>
            Starts (local time)
            <input type="datetime-local" value={startsAt} required onChange={(e) => setStartsAt(e.target.value)} />
          </label>
          <label>
            Ends (local time)
            <input type="datetime-local" value={endsAt} required onChange={(e) => setEndsAt(e.target.value)} />
          </label>
          <label>
            Time zone
            <input type="text" list="campaign-zones" value={timeZone} required onChange={(e) => setTimeZone(e.target.value)} />
          </label>
          <datalist id="campaign-zones">
            {ZONES.map((z) => (
              <option key={z} value={z} />
            ))}
          </datalist>
        </div>
        <div className="row">
          <label>
            Currency (ISO code)
            <input
              type="text"
              value={currency}
              required
              minLength={3}
              maxLength={3}
              size={4}
              onChange={(e) => setCurrency(e.target.value)}
            />
          </label>
          <label>
            Budget
            <input type="text" inputMode="decimal" value={budget} placeholder="none" onChange={(e) => setBudget(e.target.value)} />
          </label>
          <label>
            Only videos with the hashtag
            <input type="text" value={hashtag} placeholder="any" onChange={(e) => setHashtag(e.target.value)} />
          </label>
          {tags.length > 0 && (
            <label>
              Only videos tagged
              <select value={tagId} onChange={(e) => setTagId(e.target.value)}>
                <option value="">Any tag or none</option>
                {tags.map((t) => (
                  <option key={t.id} value={t.id}>
                    {t.name}
                  </option>
                ))}
              </select>
            </label>
          )}
        </div>
        <RuleFields value={rule} onChange={setRule} currency={currency.trim().toUpperCase() || "EUR"} />
        <p className="muted">
          Amounts in {currency.trim().toUpperCase() || "the currency"}, e.g. 2.50; money is kept in whole minor units and each video's
          payout is rounded half-up.
        </p>
        <div className="row">
          <Submit action={create}>Create campaign</Submit>
        </div>
      </form>
      <Outcome outcome={invalid ?? create.outcome} />
    </Panel>
  );
}
