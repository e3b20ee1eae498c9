/**
 * A section of a page with its heading: a `<section>` named by its `<h2>` (the heading's id is React's
 * `useId`, so no two panels share one), styled as a panel. A page's parts are Panels; a row of cards or a
 * section whose heading holds more than its title (a button beside it) writes its own.
 */
import { useId, type ReactNode } from "react";

export function Panel({ title, children }: { title: ReactNode; children: ReactNode }) {
  const id = useId();
  return (
    <section aria-labelledby={id} className="panel">
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}
