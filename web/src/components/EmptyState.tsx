import type { ReactNode } from "react";

/** An empty list: what is missing and what to do next. */
export function EmptyState({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <div className="empty">
      <p className="empty-title">{title}</p>
      {children && <div className="empty-next">{children}</div>}
    </div>
  );
}
