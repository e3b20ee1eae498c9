import type { ReactNode } from "react";

/**
 * A table that scrolls sideways on a narrow screen. The box can take the focus (arrow keys scroll it),
 * so a keyboard reaches columns beyond the edge even when no cell holds a button.
 */
export function TableScroll({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="table-scroll" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}
