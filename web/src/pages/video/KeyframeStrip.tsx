/**
 * What the analysis saw in the video: where the hook came from (said, shown on screen at a time, or
 * the description), the cuts and pacing, the share of frames with a face, and the keyframe strip:
 * each frame's thumbnail (served to this workspace only; the `<img>` sends the session cookie), its
 * time and the text read on it, the hook's frame marked; then every line of on-screen text with when it is
 * shown, its language and how sure the recogniser was (a line below the confidence floor is shown as set
 * aside, not used); each part that was skipped, with why. A transcript-only analysis says why nothing
 * was seen. The analysis's reasons, one per judgement, close it.
 */
import { graphql, useFragment } from "react-relay";
import type { KeyframeStrip_analysis$data, KeyframeStrip_analysis$key } from "../../__generated__/KeyframeStrip_analysis.graphql";
import { Badge } from "../../components/Badge";
import { formatClock, humanize } from "../../lib/format";

const fragment = graphql`
  fragment KeyframeStrip_analysis on VideoAnalysis {
    hookPhrase
    hookSource
    reasons
    visual {
      status
      textHook
      cutCount
      cutsPerMinute
      firstCutSeconds
      faceShare
      skipped
      providers {
        keyframes
        text
        faces
      }
      onScreenText {
        text
        firstSeconds
        lastSeconds
        language
        confidence
        used
      }
      keyframes {
        index
        seconds
        reason
        text
        face
        thumbnailUrl
      }
    }
  }
`;

type Analysis = KeyframeStrip_analysis$data;
type Visual = NonNullable<Analysis["visual"]>;
type Keyframe = Visual["keyframes"][number];

/** The text hook is the text on screen in the first 3 seconds (the service's rule); its frames are marked. */
const HOOK_SECONDS = 3;
const REASONS: Record<string, string> = { FIRST: "first frame", SCENE: "cut", INTERVAL: "sample" };

export function KeyframeStrip({ analysis }: { analysis: KeyframeStrip_analysis$key }) {
  const a = useFragment(fragment, analysis);
  const v = a.visual ?? null;
  return (
    <section aria-labelledby="seen-heading" className="seen">
      <h3 id="seen-heading">What the analysis saw</h3>
      <p data-testid="hook-source">{hookOrigin(a)}</p>
      {v === null ? (
        <p className="muted">This analysis did not look at the video (it was made before visual analysis, or is still running).</p>
      ) : v.status === "TRANSCRIPT_ONLY" ? (
        <p className="notice" role="note">
          Transcript-only analysis: nothing was seen in the video. {v.skipped.join(" ")}
        </p>
      ) : (
        <Seen visual={v} hookPhrase={a.hookSource === "SCREEN" ? (a.hookPhrase ?? null) : null} />
      )}
      {a.reasons && a.reasons.length > 0 && (
        <details className="reasons">
          <summary>
            Why ({a.reasons.length} {a.reasons.length === 1 ? "reason" : "reasons"})
          </summary>
          <ul>
            {a.reasons.map((r, i) => (
              <li key={i}>{r}</li>
            ))}
          </ul>
        </details>
      )}
    </section>
  );
}

/** Where the hook came from, in words: "Hook shown on screen at 0:00: “POV: …”". */
function hookOrigin(a: Analysis): string {
  if (!a.hookSource || !a.hookPhrase) return "No hook was found in the first seconds.";
  if (a.hookSource === "SCREEN") {
    const shown = a.visual?.onScreenText.find((t) => sameText(t.text, a.hookPhrase!));
    return `Hook shown on screen${shown ? ` at ${formatClock(shown.firstSeconds)}` : ""}: “${a.hookPhrase}”`;
  }
  if (a.hookSource === "SPEECH") return `Hook said in the first seconds: “${a.hookPhrase}”`;
  return `Hook taken from the description: “${a.hookPhrase}”`;
}

/** A keyframe's time to the tenth of a second ("0:01.5"): several frames may fall within one second. */
const frameClock = (seconds: number) => `${formatClock(seconds)}.${Math.floor((seconds * 10) % 10)}`;

const squash = (s: string) => s.toLowerCase().replace(/\s+/g, " ").trim();
const sameText = (a: string, b: string) => b !== "" && (squash(a).includes(squash(b)) || squash(b).includes(squash(a)));

function Seen({ visual: v, hookPhrase }: { visual: Visual; hookPhrase: string | null }) {
  const hookText = v.textHook ?? hookPhrase;
  const isHookFrame = (k: Keyframe) => hookText !== null && k.seconds < HOOK_SECONDS && k.text !== "" && sameText(k.text, hookText);
  const seenBy = [v.providers.keyframes, v.providers.text, v.providers.faces].filter(Boolean).join(", ");
  return (
    <>
      <dl className="findings-seen">
        <div>
          <dt>Text hook</dt>
          <dd>{v.textHook ? <q>{v.textHook}</q> : "None on screen in the first 3 s"}</dd>
        </div>
        <div>
          <dt>Cuts</dt>
          <dd>
            {v.cutCount ?? "—"}
            {v.cutsPerMinute != null && (
              <span className="muted">
                {" "}
                ({v.cutsPerMinute.toFixed(1)} per minute{v.firstCutSeconds != null ? `, first at ${formatClock(v.firstCutSeconds)}` : ""})
              </span>
            )}
          </dd>
        </div>
        <div>
          <dt>Face on camera</dt>
          <dd>{v.faceShare == null ? "Not checked" : `${Math.round(v.faceShare * 100)} % of keyframes`}</dd>
        </div>
      </dl>
      {/* Focusable: the strip scrolls sideways, and the keyboard must be able to scroll it too. */}
      <ol className="keyframes" aria-label="Keyframes" tabIndex={0}>
        {v.keyframes.map((k) => (
          <li key={k.index} className={isHookFrame(k) ? "keyframe keyframe-hook" : "keyframe"}>
            <figure>
              {k.thumbnailUrl ? (
                <img src={k.thumbnailUrl} alt={`Frame at ${frameClock(k.seconds)}`} loading="lazy" width={160} />
              ) : (
                <div className="keyframe-missing">No thumbnail</div>
              )}
              <figcaption>
                <span className="clock">{frameClock(k.seconds)}</span>{" "}
                <span className="muted">{REASONS[k.reason] ?? humanize(k.reason)}</span>
                {isHookFrame(k) && <Badge tone="info">Hook</Badge>}
                {k.face && <Badge>Face</Badge>}
                {k.text ? <q>{k.text}</q> : <span className="muted"> No text</span>}
              </figcaption>
            </figure>
          </li>
        ))}
      </ol>
      {v.onScreenText.length > 0 && <OnScreenTextList lines={v.onScreenText} />}
      {v.skipped.length > 0 && (
        <div className="notice" role="note" data-testid="skipped">
          <p>Parts left out, and why:</p>
          <ul>
            {v.skipped.map((why, i) => (
              <li key={i}>{why}</li>
            ))}
          </ul>
        </div>
      )}
      {seenBy && <p className="muted">Seen by {seenBy}.</p>}
    </>
  );
}

/** A language tag in words, in the reader's own language ("Russian" for `ru`); the tag itself where the browser has no name. */
export function languageName(tag: string | null | undefined): string {
  if (!tag) return "language unknown";
  try {
    return new Intl.DisplayNames(undefined, { type: "language" }).of(tag) ?? tag;
  } catch {
    return tag;
  }
}

/** Every line of on-screen text: when it is shown, its language, the recogniser's confidence, and whether it was used. */
function OnScreenTextList({ lines }: { lines: Visual["onScreenText"] }) {
  return (
    <div className="on-screen-text">
      <h4>On-screen text</h4>
      <ul aria-label="On-screen text">
        {lines.map((t, i) => (
          <li key={i} className={t.used ? undefined : "muted"} lang={t.language ?? undefined}>
            <span className="clock">{formatClock(t.firstSeconds)}</span> <q>{t.text}</q> <Badge>{languageName(t.language)}</Badge>
            {t.confidence != null && <span className="muted"> {Math.round(t.confidence * 100)} % sure</span>}
            {!t.used && <Badge tone="warning">Set aside: below the confidence floor, not used</Badge>}
          </li>
        ))}
      </ul>
    </div>
  );
}
