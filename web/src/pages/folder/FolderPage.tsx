/**
 * One folder: rename, delete (after a confirmation), its analytics cards and top videos, its
 * contents (videos and accounts, each removable), and adding tracked videos or accounts to it.
 * After any change, and when the videos' sort changes, the page's query is read again inside a
 * transition (the page stays on screen), so the counts, cards and lists agree with the server.
 */
import { Suspense, useCallback, useState, useTransition } from "react";
import { graphql, useLazyLoadQuery } from "react-relay";
import { Link, useParams } from "react-router";
import type { FolderPageQuery, FolderVideoSort, SortOrder } from "../../__generated__/FolderPageQuery.graphql";
import { paths } from "../../app/paths";
import { Loading } from "../../components/Loading";
import { PageHeader } from "../../components/PageHeader";
import { Time } from "../../components/Time";
import { formatWhole } from "../../lib/format";
import { AddToFolder } from "./AddToFolder";
import { FolderAccounts } from "./FolderAccounts";
import { FolderActions } from "./FolderActions";
import { FolderAnalytics } from "./FolderAnalytics";
import { FolderVideos } from "./FolderVideos";

const query = graphql`
  query FolderPageQuery($id: ID!, $sort: FolderVideoSort!, $order: SortOrder!) {
    folder(id: $id) {
      id
      uuid
      name
      createdAt
      videoCount
      accountCount
      ...FolderAnalytics_folder
      ...FolderVideos_folder @arguments(sort: $sort, order: $order)
      ...FolderAccounts_folder
    }
  }
`;

export default function FolderPage() {
  const { id = "" } = useParams();
  const [fetchKey, setFetchKey] = useState(0);
  const [pending, startTransition] = useTransition();
  const [order, setOrder] = useState<{ sort: FolderVideoSort; order: SortOrder }>({ sort: "UPLOADED", order: "DESC" });
  const reload = useCallback(() => startTransition(() => setFetchKey((k) => k + 1)), []);
  const sortBy = useCallback((next: { sort: FolderVideoSort; order: SortOrder }) => startTransition(() => setOrder(next)), []);
  const data = useLazyLoadQuery<FolderPageQuery>(query, { id, ...order }, { fetchPolicy: fetchKey ? "network-only" : "store-and-network", fetchKey });
  const f = data.folder;
  return (
    <div aria-busy={pending}>
      <p className="breadcrumb">
        <Link to={paths.folders()}>← Folders</Link>
      </p>
      <PageHeader title={f.name}>
        <FolderActions folderId={f.id} name={f.name} />
      </PageHeader>
      <p className="muted">
        {formatWhole(f.videoCount)} video{f.videoCount === 1 ? "" : "s"} and {formatWhole(f.accountCount)} account{f.accountCount === 1 ? "" : "s"}; created{" "}
        <Time value={f.createdAt} />.
      </p>
      <FolderAnalytics folder={f} />
      <section aria-labelledby="folder-add-heading" className="panel">
        <h2 id="folder-add-heading">Add to this folder</h2>
        <Suspense fallback={<Loading what="Loading your tracked videos and accounts" />}>
          <AddToFolder folderId={f.id} onAdded={reload} />
        </Suspense>
      </section>
      <section aria-labelledby="folder-videos-heading" className="panel">
        <h2 id="folder-videos-heading">Videos</h2>
        <FolderVideos folder={f} order={order} onSort={sortBy} onChanged={reload} />
      </section>
      <section aria-labelledby="folder-accounts-heading" className="panel">
        <h2 id="folder-accounts-heading">Accounts</h2>
        <FolderAccounts folder={f} onChanged={reload} />
      </section>
    </div>
  );
}
