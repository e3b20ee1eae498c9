/**
 * The video's analysis: start it (its cost and the balance shown first), follow its steps live
 * (pending → downloading → transcribed → analyzing → completed or failed), then read the
 * transcript, hook, UGC fit and call to action. Force re-analysis asks for a confirmation.
 */
import { useMemo, useState } from "react";
import { graphql, readInlineData, useFragment, useSubscription } from "react-relay";
import type { GraphQLSubscriptionConfig, RecordSourceSelectorProxy } from "relay-runtime";
import type { AnalysisPanel_video$key } from "../../__generated__/AnalysisPanel_video.graphql";
import type { AnalysisPanel_analysis$data, AnalysisPanel_analysis$key } from "../../__generated__/AnalysisPanel_analysis.graphql";
import type { AnalysisPanelStatusSubscription, AnalysisStatus } from "../../__generated__/AnalysisPanelStatusSubscription.graphql";
import type { AnalysisPanelAnalyzeMutation } from "../../__generated__/AnalysisPanelAnalyzeMutation.graphql";
import { Badge } from "../../components/Badge";
import { ConfirmButton } from "../../components/ConfirmButton";
import { Outcome } from "../../components/Outcome";
import { Time } from "../../components/Time";
import { ANALYSIS_CREDITS } from "../../lib/costs";
import { formatClock, formatWhole, humanize } from "../../lib/format";
import { useAction } from "../../relay/action";
import { KeyframeStrip, languageName } from "./KeyframeStrip";

const fragment = graphql`
  fragment AnalysisPanel_video on Video {
    id
    analysis {
      ...AnalysisPanel_analysis
    }
  }
`;

/** What the panel shows of an analysis; the subscription and the mutation ask for the same. */
const analysisFragment = graphql`
  fragment AnalysisPanel_analysis on VideoAnalysis @inline {
    id
    status
    error
    analysisProvider
    transcript
    transcriptSource
    transcriptLanguage
    transcriptConfidence
    transcriptUsed
    transcriptNote
    segments {
      start
      end
      text
    }
    hookStyle
    hookPhrase
    ugcFit
    ugcConfidence
    ctaType
    ctaDestinationUrl
    completedAt
    ...KeyframeStrip_analysis
  }
`;

const statusSubscription = graphql`
  subscription AnalysisPanelStatusSubscription($videoId: ID!) {
    analysisStatusChanged(videoId: $videoId) {
      status
      at
      error
      analysis {
        ...AnalysisPanel_analysis
      }
    }
  }
`;

const analyzeMutation = graphql`
  mutation AnalysisPanelAnalyzeMutation($videoId: ID!, $force: Boolean!) {
    analyzeVideo(videoId: $videoId, force: $force) {
      outcome
      message
      analysis {
        ...AnalysisPanel_analysis
      }
    }
  }
`;

const STEPS: AnalysisStatus[] = ["PENDING", "DOWNLOADING", "TRANSCRIBED", "ANALYZING", "COMPLETED"];
const STEP_LABELS: Record<string, string> = {
  PENDING: "Queued",
  DOWNLOADING: "Downloading and transcribing",
  TRANSCRIBED: "Transcribed",
  ANALYZING: "Analysing hook, UGC fit and call to action",
  COMPLETED: "Completed",
  FAILED: "Failed",
};

/** Points the video at the analysis a payload carries (a new one after a forced re-analysis). */
function linkAnalysis(videoId: string, field: "analysisStatusChanged" | "analyzeVideo") {
  return (store: RecordSourceSelectorProxy) => {
    const analysis = store.getRootField(field)?.getLinkedRecord("analysis");
    if (analysis) store.get(videoId)?.setLinkedRecord(analysis, "analysis");
  };
}

interface LogLine {
  status: AnalysisStatus;
  at: string;
}

export function AnalysisPanel({ video, balance }: { video: AnalysisPanel_video$key; balance: number }) {
  const v = useFragment(fragment, video);
  const [log, setLog] = useState<LogLine[]>([]);
  const analyze = useAction<AnalysisPanelAnalyzeMutation>(analyzeMutation);
  const starting = analyze.pending;

  const config = useMemo<GraphQLSubscriptionConfig<AnalysisPanelStatusSubscription>>(
    () => ({
      subscription: statusSubscription,
      variables: { videoId: v.id },
      updater: linkAnalysis(v.id, "analysisStatusChanged"),
      onNext: (payload) => {
        const change = payload?.analysisStatusChanged;
        if (change)
          setLog((lines) =>
            lines.some((l) => l.status === change.status && l.at === change.at)
              ? lines
              : [...lines, { status: change.status, at: change.at }],
          );
      },
    }),
    [v.id],
  );
  useSubscription(config);

  function start(force: boolean) {
    if (force) setLog([]);
    void analyze.run({ videoId: v.id, force }, { updater: linkAnalysis(v.id, "analyzeVideo"), failed: "Could not start the analysis" });
  }

  const a = v.analysis ? readInlineData<AnalysisPanel_analysis$key>(analysisFragment, v.analysis) : null;
  const running = a !== null && a.status !== "COMPLETED" && a.status !== "FAILED";
  const cost = (
    <p className="muted" id="analysis-cost">
      An analysis costs {ANALYSIS_CREDITS} credits, charged only when it completes. Your balance: {formatWhole(balance)} credits.
    </p>
  );

  return (
    <section aria-labelledby="analysis-heading" className="panel">
      <div className="row spread">
        <h2 id="analysis-heading">Analysis</h2>
        {a?.analysisProvider === "heuristic" && (
          <Badge tone="info" title="Made by the built-in rules, not by a language model.">
            Heuristic analysis
          </Badge>
        )}
      </div>
      {a === null ? (
        <>
          <p>Transcribe the video and read its hook, how well it fits user-generated content, and its call to action.</p>
          {cost}
          <button
            type="button"
            className="button-primary"
            aria-describedby="analysis-cost"
            disabled={starting || balance < ANALYSIS_CREDITS}
            onClick={() => start(false)}
          >
            Analyse for {ANALYSIS_CREDITS} credits
          </button>
          {balance < ANALYSIS_CREDITS && (
            <p className="notice">Not enough credits: they renew at the start of the next cycle (see Overview).</p>
          )}
        </>
      ) : (
        <>
          <Steps status={a.status} />
          {a.status === "FAILED" && (
            <p className="notice notice-error" role="alert">
              The analysis failed: {a.error ?? "no reason given"}. No credits were charged.
            </p>
          )}
          {log.length > 0 && (
            <details className="status-log">
              <summary>Status changes</summary>
              <ol aria-label="Status changes">
                {log.map((l) => (
                  <li key={l.status + l.at} data-status={l.status}>
                    {STEP_LABELS[l.status]} <Time value={l.at} />
                  </li>
                ))}
              </ol>
            </details>
          )}
          {a.status === "COMPLETED" && <Results analysis={a} />}
          {a.transcript != null && a.status !== "COMPLETED" && <Transcript analysis={a} />}
          {!running && (
            <div className="row">
              {cost}
              <ConfirmButton
                question={`Analyse this video again? It costs ${ANALYSIS_CREDITS} credits and replaces the current result.`}
                confirmLabel="Analyse again"
                onConfirm={() => start(true)}
                disabled={starting || balance < ANALYSIS_CREDITS}
              >
                Force re-analysis
              </ConfirmButton>
            </div>
          )}
        </>
      )}
      <Outcome outcome={analyze.outcome} />
    </section>
  );
}

/** The steps as an ordered list; the current one is marked (aria-current) and announced. */
function Steps({ status }: { status: AnalysisStatus }) {
  const failed = status === "FAILED";
  const reached = failed ? -1 : STEPS.indexOf(status);
  return (
    <>
      <ol className="steps" aria-label="Analysis steps">
        {STEPS.map((step, i) => {
          const state = failed ? "upcoming" : i < reached || status === "COMPLETED" ? "done" : i === reached ? "current" : "upcoming";
          return (
            <li key={step} className={`step step-${state}`} data-step={step} aria-current={state === "current" ? "step" : undefined}>
              <span aria-hidden="true">{state === "done" ? "✓" : i + 1}</span> {STEP_LABELS[step]}
              <span className="visually-hidden">{state === "done" ? " (done)" : state === "current" ? " (in progress)" : ""}</span>
            </li>
          );
        })}
        {failed && (
          <li className="step step-failed" data-step="FAILED" aria-current="step">
            <span aria-hidden="true">✕</span> Failed
          </li>
        )}
      </ol>
      <p role="status" className="visually-hidden">
        Analysis status: {STEP_LABELS[status]}
      </p>
    </>
  );
}

type Analysis = AnalysisPanel_analysis$data;

function Results({ analysis: a }: { analysis: Analysis }) {
  return (
    <>
      <dl className="findings">
        <div>
          <dt>Hook</dt>
          <dd>
            {a.hookStyle ? humanize(a.hookStyle) : "—"}
            {a.hookPhrase ? <q>{a.hookPhrase}</q> : null}
          </dd>
        </div>
        <div>
          <dt>UGC fit</dt>
          <dd>
            {a.ugcFit ? humanize(a.ugcFit) : "—"}
            {a.ugcConfidence != null && <span className="muted"> ({a.ugcConfidence} % confidence)</span>}
          </dd>
        </div>
        <div>
          <dt>Call to action</dt>
          <dd>
            {a.ctaType ? humanize(a.ctaType) : "—"}
            {a.ctaDestinationUrl && <span className="muted"> → {a.ctaDestinationUrl}</span>}
          </dd>
        </div>
        <div>
          <dt>Completed</dt>
          <dd>
            <Time value={a.completedAt} />
          </dd>
        </div>
      </dl>
      <KeyframeStrip analysis={a} />
      {a.transcript != null && <Transcript analysis={a} />}
    </>
  );
}

/**
 * The transcript with its language and how sure the recogniser was; a transcript set aside (below the
 * confidence floor, or speech the recogniser could not read) is shown muted, saying so and why, as
 * on-screen lines are; an empty one says why (no audio stream).
 */
function Transcript({ analysis: a }: { analysis: Analysis }) {
  const setAside = a.transcriptUsed === false && Boolean(a.transcript);
  return (
    <div className="transcript">
      <h3>
        Transcript{a.transcriptSource && a.transcriptSource !== "none" ? <span className="muted"> (from {a.transcriptSource})</span> : null}{" "}
        {a.transcriptUsed != null && a.transcript ? <Badge>{languageName(a.transcriptLanguage)}</Badge> : null}
        {a.transcriptConfidence != null && <span className="muted"> {Math.round(a.transcriptConfidence * 100)} % sure</span>}{" "}
        {setAside && <Badge tone="warning">Set aside: not used for any judgement</Badge>}
      </h3>
      {a.transcriptNote && <p className="transcript-note muted">{a.transcriptNote}</p>}
      <div className={setAside ? "muted" : undefined} lang={a.transcriptLanguage ?? undefined}>
        {a.segments && a.segments.length > 0 ? (
          <ol className="segments">
            {a.segments.map((s, i) => (
              <li key={i}>
                <span className="clock">
                  {formatClock(s.start)}–{formatClock(s.end)}
                </span>{" "}
                {s.text}
              </li>
            ))}
          </ol>
        ) : (
          <p>{a.transcript || (a.transcriptNote ? "" : "No speech was found in this video.")}</p>
        )}
      </div>
    </div>
  );
}
