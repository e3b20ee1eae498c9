import { useEffect, type ReactNode } from "react";

/** A page's heading (its one h1) and the document title; actions go on the right. */
export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · Video tracker`;
  }, [title]);
  return (
    <div className="page-header">
      <h1>{title}</h1>
      {children && <div className="page-actions">{children}</div>}
    </div>
  );
}
