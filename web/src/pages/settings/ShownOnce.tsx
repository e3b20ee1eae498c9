/**
 * A secret the service answers once (an API key, a webhook's signing secret, an invitation's link):
 * shown in full with a copy button and a plain warning that it will not be shown again, until the
 * person says they have it.
 */
import { useEffect, useRef, useState } from "react";

interface Props {
  /** What it is, e.g. "Your new API key" (the region's heading and the field's label). */
  title: string;
  value: string;
  /** What to do with it, after "you will not see it again". */
  note?: string;
  onDone: () => void;
}

export function ShownOnce({ title, value, note, onDone }: Props) {
  const [copied, setCopied] = useState<"yes" | "no" | null>(null);
  const field = useRef<HTMLInputElement>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  // Focus moves here when it appears, so a keyboard or screen-reader user finds the secret at once.
  useEffect(() => heading.current?.focus(), []);

  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied("yes");
    } catch {
      // No clipboard (http on another host, or refused): select it for Ctrl+C instead.
      field.current?.select();
      setCopied("no");
    }
  }

  const id = `shown-once-${title.replace(/\W+/g, "-").toLowerCase()}`;
  return (
    <section className="shown-once" aria-labelledby={id}>
      <h3 id={id} ref={heading} tabIndex={-1}>
        {title}
      </h3>
      <p>
        <strong>Copy it now: you will not see it again.</strong> {note}
      </p>
      <div className="row">
        <label className="secret-field">
          <span className="visually-hidden">{title}</span>
          <input ref={field} readOnly value={value} spellCheck={false} onFocus={(e) => e.currentTarget.select()} />
        </label>
        <button type="button" className="button-primary" onClick={() => void copy()}>
          Copy
        </button>
        <button type="button" onClick={onDone}>
          Done
        </button>
      </div>
      <p role="status" className="muted">
        {copied === "yes"
          ? "Copied to the clipboard."
          : copied === "no"
            ? "Could not copy by itself: it is selected, press Ctrl+C (⌘C)."
            : ""}
      </p>
    </section>
  );
}
