/**
 * A radar search: what is sought and every option of `createRadarSearch` (platform, depth,
 * minimum views, posting time, language), with its cost and the balance said before starting. A
 * started search opens at /radar/:id, where its status changes live.
 */
import { useState, type FormEvent } from "react";
import { graphql } from "react-relay";
import { useNavigate } from "react-router";
import type {
  Platform,
  RadarDepth,
  RadarMinViews,
  RadarSearchFormMutation,
  RadarTimePeriod,
} from "../../__generated__/RadarSearchFormMutation.graphql";
import { paths } from "../../lib/paths";
import { Outcome } from "../../components/Outcome";
import { Select } from "../../components/Select";
import { RADAR_SEARCH_CREDITS } from "../../lib/costs";
import { formatWhole, PLATFORMS } from "../../lib/format";
import { useAction } from "../../relay/action";
import { rootConnection } from "../../relay/connections";
import { Panel } from "../../components/Panel";

const mutation = graphql`
  mutation RadarSearchFormMutation(
    $query: String!
    $platform: Platform
    $depth: RadarDepth
    $minViews: RadarMinViews
    $timePeriod: RadarTimePeriod
    $language: String
    $connections: [ID!]!
  ) {
    createRadarSearch(query: $query, platform: $platform, depth: $depth, minViews: $minViews, timePeriod: $timePeriod, language: $language)
      @prependNode(connections: $connections, edgeTypeName: "RadarSearchEdge") {
      id
      uuid
      ...RadarHistory_search
    }
  }
`;

const DEPTHS: { value: RadarDepth; label: string }[] = [
  { value: "QUICK", label: "Quick (3 queries)" },
  { value: "STANDARD", label: "Standard (6 queries)" },
  { value: "DEEP", label: "Deep (12 queries)" },
];
const MIN_VIEWS: { value: RadarMinViews; label: string }[] = [
  { value: "ANY", label: "Any" },
  { value: "MIN_10K", label: "10K or more" },
  { value: "MIN_25K", label: "25K or more" },
  { value: "MIN_50K", label: "50K or more" },
  { value: "MIN_100K", label: "100K or more" },
];
const PERIODS: { value: RadarTimePeriod; label: string }[] = [
  { value: "ANY", label: "Any time" },
  { value: "TODAY", label: "Today" },
  { value: "WEEK", label: "Last 7 days" },
  { value: "LAST_MONTH", label: "Last month" },
  { value: "YEAR", label: "Last year" },
];

export function RadarSearchForm({ balance }: { balance: number }) {
  const [text, setText] = useState("");
  const [platform, setPlatform] = useState<Platform>(PLATFORMS[0].value);
  const [depth, setDepth] = useState<RadarDepth>("STANDARD");
  const [minViews, setMinViews] = useState<RadarMinViews>("ANY");
  const [timePeriod, setTimePeriod] = useState<RadarTimePeriod>("ANY");
  const [language, setLanguage] = useState("English");
  const create = useAction<RadarSearchFormMutation>(mutation);
  const creating = create.pending;
  const navigate = useNavigate();
  const affordable = balance >= RADAR_SEARCH_CREDITS;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const connections = [rootConnection("RadarHistory_radarSearches")];
    const r = await create.run(
      { query: text, platform, depth, minViews, timePeriod, language: language.trim() || null, connections },
      { failed: "Could not start the search" },
    );
    if (r) navigate(paths.radarSearch(r.createRadarSearch.uuid));
  }

  return (
    <Panel title="New search">
      <form onSubmit={submit} className="track-form">
        <label htmlFor="radar-query">Search for</label>
        <p id="radar-query-help" className="muted">
          Describe the videos you want, for example “sourdough bread for beginners”: a specific description finds better videos.
        </p>
        <textarea
          id="radar-query"
          aria-describedby="radar-query-help"
          rows={2}
          maxLength={1000}
          required
          value={text}
          onChange={(e) => setText(e.target.value)}
        />
        <div className="filters">
          <Select label="Platform" value={platform} options={PLATFORMS} onChange={setPlatform} />
          <Select label="Depth" value={depth} options={DEPTHS} onChange={setDepth} />
          <Select label="Minimum views" value={minViews} options={MIN_VIEWS} onChange={setMinViews} />
          <Select label="Posted" value={timePeriod} options={PERIODS} onChange={setTimePeriod} />
          <label>
            Language
            <input type="text" value={language} maxLength={50} onChange={(e) => setLanguage(e.target.value)} />
          </label>
        </div>
        <p className="cost" id="radar-cost">
          A search costs {formatWhole(RADAR_SEARCH_CREDITS)} credits. Your balance: {formatWhole(balance)} credits.
          {!affordable && " That is not enough: credits renew with your plan's cycle (see the Overview)."}
        </p>
        <div className="row">
          <button type="submit" className="button-primary" aria-describedby="radar-cost" disabled={creating || !affordable}>
            Search for {formatWhole(RADAR_SEARCH_CREDITS)} credits
          </button>
          {creating && (
            <span role="status" className="muted">
              Starting…
            </span>
          )}
        </div>
      </form>
      <Outcome outcome={create.outcome} />
    </Panel>
  );
}
