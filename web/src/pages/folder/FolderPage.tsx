/**
 * One folder: rename, delete (after a confirmation), its analytics cards and top videos, its
 * contents (videos and accounts, each removable), and adding tracked videos or accounts to it. The
 * videos' sort lives in the URL (./list-options.ts). After a change the route reads the folder
 * again (the page stays on screen), so the counts, cards and lists agree with the server.
 */
import { graphql } from "react-relay";
import { Link, useNavigation, useRevalidator } from "react-router";
import type { FolderPageQuery } from "../../__generated__/FolderPageQuery.graphql";
import { paths } from "../../app/paths";
import { PageHeader } from "../../components/PageHeader";
import { Time } from "../../components/Time";
import { plural } from "../../lib/format";
import { useRouteQuery } from "../../relay/route-query";
import { AddToFolder } from "./AddToFolder";
import { FolderAccounts } from "./FolderAccounts";
import { FolderActions } from "./FolderActions";
import { FolderAnalytics } from "./FolderAnalytics";
import { FolderVideos } from "./FolderVideos";

const query = graphql`
  query FolderPageQuery($id: ID!, $sort: FolderVideoSort!, $order: SortOrder!) {
    folder(id: $id) {
      id
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
  const { folder: f } = useRouteQuery<FolderPageQuery>(query);
  const { revalidate, state } = useRevalidator();
  const reload = () => void revalidate();
  const navigating = useNavigation().state === "loading";
  const pending = state === "loading" || navigating;
  return (
    <div aria-busy={pending}>
      <p className="breadcrumb">
        <Link to={paths.folders()}>← Folders</Link>
      </p>
      <PageHeader title={f.name}>
        <FolderActions folderId={f.id} name={f.name} />
      </PageHeader>
      <p className="muted">
        {plural(f.videoCount, "video")} and {plural(f.accountCount, "account")}; created <Time value={f.createdAt} />.
      </p>
      <FolderAnalytics folder={f} />
      <section aria-labelledby="folder-add-heading" className="panel">
        <h2 id="folder-add-heading">Add to this folder</h2>
        <AddToFolder folderId={f.id} onAdded={reload} />
      </section>
      <section aria-labelledby="folder-videos-heading" className="panel">
        <h2 id="folder-videos-heading">Videos</h2>
        <FolderVideos folder={f} onChanged={reload} />
      </section>
      <section aria-labelledby="folder-accounts-heading" className="panel">
        <h2 id="folder-accounts-heading">Accounts</h2>
        <FolderAccounts folder={f} onChanged={reload} />
      </section>
    </div>
  );
}
