/**
 * Alerts (yours, in this workspace): for each rule, whether it shows in the dashboard (the bell)
 * and whether it also comes by mail (a burst: one mail per 10 minutes, saying how many), and for
 * spikes the least views per hour worth one; the weekly digest's day, hour and your time zone;
 * and, for owners, the credits left below which "Credits low" fires.
 */
import { useState, type ChangeEvent, type FormEvent } from "react";
import { graphql } from "react-relay";
import type { AlertsSectionQuery, AlertsSectionQuery$data } from "../../__generated__/AlertsSectionQuery.graphql";
import type { AlertsSectionRuleMutation } from "../../__generated__/AlertsSectionRuleMutation.graphql";
import type { AlertsSectionDigestMutation } from "../../__generated__/AlertsSectionDigestMutation.graphql";
import type { AlertsSectionThresholdMutation } from "../../__generated__/AlertsSectionThresholdMutation.graphql";
import { DataTable, type Column } from "../../components/DataTable";
import { Outcome } from "../../components/Outcome";
import { useAction } from "../../relay/action";
import { useRouteQuery } from "../../relay/route-query";
import { Submit } from "../../components/Submit";
import { Panel } from "../../components/Panel";

const query = graphql`
  query AlertsSectionQuery {
    alertRules {
      ...AlertsSection_rule @relay(mask: false)
    }
    digestSettings {
      enabled
      weekday
      hour
      timeZone
    }
    creditsAlertThreshold
  }
`;

// The fields of a rule's row; the change asks for the same, so the row shows the server's answer whole.
// eslint-disable-next-line @typescript-eslint/no-unused-expressions -- relay-compiler only needs the tag (spread with @relay(mask: false))
graphql`
  fragment AlertsSection_rule on AlertRuleChoice {
    id
    rule
    label
    inDashboard
    byMail
    minViewsPerHour
  }
`;

const setRule = graphql`
  mutation AlertsSectionRuleMutation($rule: AlertRule!, $inDashboard: Boolean!, $byMail: Boolean!, $minViewsPerHour: Int) {
    setAlertRule(rule: $rule, inDashboard: $inDashboard, byMail: $byMail, minViewsPerHour: $minViewsPerHour) {
      ...AlertsSection_rule @relay(mask: false)
    }
  }
`;

const setDigest = graphql`
  mutation AlertsSectionDigestMutation($enabled: Boolean!, $weekday: Int!, $hour: Int!, $timeZone: String) {
    setDigestSettings(enabled: $enabled, weekday: $weekday, hour: $hour, timeZone: $timeZone) {
      enabled
      weekday
      hour
      timeZone
    }
  }
`;

const setThreshold = graphql`
  mutation AlertsSectionThresholdMutation($threshold: Int) {
    setCreditsAlertThreshold(threshold: $threshold)
  }
`;

type Rule = AlertsSectionQuery$data["alertRules"][number];
const WEEKDAYS = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"];

export function AlertsSection({ isOwner }: { isOwner: boolean }) {
  const data = useRouteQuery<AlertsSectionQuery>(query);
  return (
    <>
      <Rules rules={data.alertRules} />
      <Digest settings={data.digestSettings} />
      {isOwner && <CreditsThreshold value={data.creditsAlertThreshold ?? null} />}
    </>
  );
}

function Rules({ rules }: { rules: readonly Rule[] }) {
  const action = useAction<AlertsSectionRuleMutation>(setRule);
  const spike = rules.find((r) => r.rule === "VIDEO_SPIKE");
  const [minViews, minViewsField] = useOptionalCount(spike?.minViewsPerHour ?? null);

  function change(r: Rule, patch: Partial<Pick<Rule, "inDashboard" | "byMail" | "minViewsPerHour">>) {
    const next = { rule: r.rule, inDashboard: r.inDashboard, byMail: r.byMail, minViewsPerHour: r.minViewsPerHour ?? null, ...patch };
    void action.run(next, {
      optimisticResponse: { setAlertRule: { id: r.id, label: r.label, ...next } },
      done: () =>
        `${r.label}: ${[next.inDashboard && "in the dashboard", next.byMail && "by mail"].filter(Boolean).join(" and ") || "off"}.`,
      failed: `Could not change ${r.label}`,
    });
  }

  const columns: Column<Rule>[] = [
    { id: "rule", header: "Alert", className: "cell-wrap", cell: (r) => r.label },
    {
      id: "dashboard",
      header: "In the dashboard",
      cell: (r) => (
        <label>
          <input type="checkbox" checked={r.inDashboard} onChange={(e) => change(r, { inDashboard: e.currentTarget.checked })} />
          <span className="visually-hidden">{r.label} in the dashboard</span>
        </label>
      ),
    },
    {
      id: "mail",
      header: "By mail",
      cell: (r) => (
        <label>
          <input type="checkbox" checked={r.byMail} onChange={(e) => change(r, { byMail: e.currentTarget.checked })} />
          <span className="visually-hidden">{r.label} by mail</span>
        </label>
      ),
    },
  ];

  return (
    <Panel title="Your alerts">
      <p className="muted">
        For this workspace. A burst of one alert sends at most one mail per 10 minutes, saying how many; every mail has a link to stop it.
      </p>
      <Outcome outcome={action.outcome} />
      {/* Every rule is listed, set or not: never empty. */}
      <DataTable label="Alert rules and how you hear of them" columns={columns} rows={rules} rowKey={(r) => r.rule} empty={null} />
      {/* Below the table, not a column of it: a fourth column left the field off a phone's screen. */}
      {spike && (
        <form
          className="inline-form spike-threshold"
          onSubmit={(e: FormEvent) => {
            e.preventDefault();
            change(spike, { minViewsPerHour: minViews });
          }}
        >
          <label htmlFor="min-views">Least views per hour for a spike alert</label>
          <input id="min-views" placeholder="any" {...minViewsField} />
          <button type="submit">Save</button>
        </form>
      )}
    </Panel>
  );
}

function Digest({ settings }: { settings: AlertsSectionQuery$data["digestSettings"] }) {
  const action = useAction<AlertsSectionDigestMutation>(setDigest);
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const variables = {
      enabled: form.get("enabled") === "on",
      weekday: Number(form.get("weekday")),
      hour: Number(form.get("hour")),
      timeZone: String(form.get("timeZone") ?? "").trim() || null,
    };
    void action.run(variables, {
      done: (r) => (r.setDigestSettings.enabled ? "Weekly digest on." : "Weekly digest off."),
      failed: "Could not save the digest",
    });
  }
  return (
    <Panel title="Weekly digest">
      <form onSubmit={submit} className="stacked-form">
        <label>
          <input type="checkbox" name="enabled" defaultChecked={settings.enabled} /> Send me a weekly digest of this workspace
        </label>
        <label htmlFor="digest-weekday">Day</label>
        <select id="digest-weekday" name="weekday" defaultValue={settings.weekday}>
          {WEEKDAYS.map((d, i) => (
            <option key={d} value={i}>
              {d}
            </option>
          ))}
        </select>
        <label htmlFor="digest-hour">Hour</label>
        <select id="digest-hour" name="hour" defaultValue={settings.hour}>
          {Array.from({ length: 24 }, (_, h) => (
            <option key={h} value={h}>
              {String(h).padStart(2, "0")}:00
            </option>
          ))}
        </select>
        <label htmlFor="digest-zone">Time zone</label>
        <input
          id="digest-zone"
          name="timeZone"
          defaultValue={settings.timeZone}
          placeholder={Intl.DateTimeFormat().resolvedOptions().timeZone}
          autoComplete="off"
        />
        <Submit action={action}>Save digest</Submit>
      </form>
      <Outcome outcome={action.outcome} />
    </Panel>
  );
}

function CreditsThreshold({ value }: { value: number | null }) {
  const action = useAction<AlertsSectionThresholdMutation>(setThreshold);
  const [threshold, thresholdField] = useOptionalCount(value);
  function submit(event: FormEvent) {
    event.preventDefault();
    void action.run(
      { threshold },
      {
        done: () => (threshold === null ? "Credits low uses the server's percentage." : `Credits low fires below ${threshold} credits.`),
        failed: "Could not save the threshold",
      },
    );
  }
  return (
    <Panel title="Credits low (owners)">
      <form onSubmit={submit} className="stacked-form">
        <label htmlFor="credits-threshold">Alert when fewer credits than this are left</label>
        <input id="credits-threshold" placeholder="server default" {...thresholdField} />
        <Submit action={action}>Save threshold</Submit>
      </form>
      <Outcome outcome={action.outcome} />
    </Panel>
  );
}

/** A count that may be left empty (null: none of its own): the number the field says, and the field's props. */
function useOptionalCount(initial: number | null) {
  const [text, setText] = useState(initial === null ? "" : String(initial));
  const count = text.trim() === "" ? null : Number(text);
  const field = {
    type: "number",
    min: 0,
    inputMode: "numeric",
    value: text,
    onChange: (e: ChangeEvent<HTMLInputElement>) => setText(e.currentTarget.value),
  } as const;
  return [count, field] as const;
}
