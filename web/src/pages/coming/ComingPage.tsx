import { PageHeader } from "../../components/PageHeader";

/** A page that is planned but not built yet (issue 20's later parts fill these). */
export default function ComingPage({ title, what }: { title: string; what: string }) {
  return (
    <>
      <PageHeader title={title} />
      <div className="empty">
        <p className="empty-title">This page is coming.</p>
        <p className="empty-next">
          {what} Until then, the same is available through the GraphQL API (<a href="/graphql">GraphQL explorer</a>) and the REST API under /api/v1.
        </p>
      </div>
    </>
  );
}
