/**
 * One folder: where it sits (breadcrumbs from the top of the tree), rename, move, delete (asking what
 * happens to its sub-folders), its sub-folders and a form for a new one, its analytics cards and top
 * videos (with or without its sub-folders: ?sub=1 in the URL), its contents (videos and accounts, each
 * removable), and adding tracked videos or accounts to it. The videos' sort lives in the URL
 * (./list-options.ts). After a change the route reads the folder again (the page stays on screen), so
 * the counts, cards and lists agree with the server.
 */
import { graphql } from "react-relay";
import { Link, useNavigation, useRevalidator, useSearchParams } from "react-router";
import type { FolderPageQuery } from "../../__generated__/FolderPageQuery.graphql";
import { paths } from "../../lib/paths";
import { PageHeader } from "../../components/PageHeader";
import type { PickerOption } from "../../components/Picker";
import { Time } from "../../components/Time";
import { plural } from "../../lib/format";
import { useRouteQuery } from "../../relay/route-query";
import { AddToFolder } from "./AddToFolder";
import { FolderAccounts } from "./FolderAccounts";
import { FolderActions } from "./FolderActions";
import { FolderAnalytics } from "./FolderAnalytics";
import { FolderReports } from "./FolderReports";
import { FolderVideos } from "./FolderVideos";
import { SubFolders } from "./SubFolders";
import { ExportButton } from "../../components/ExportButton";
import { folderVideoOptions } from "./list-options";
import { Panel } from "../../components/Panel";

const query = graphql`
  query FolderPageQuery($id: ID!, $sort: FolderVideoSort!, $order: SortOrder!, $includeDescendants: Boolean!) {
    folder(id: $id) {
      id
      uuid
      name
      createdAt
      videoCount
      accountCount
      childCount
      ancestors {
        id
        uuid
        name
      }
      ...SubFolders_folder
      ...FolderAnalytics_folder @arguments(includeDescendants: $includeDescendants)
      ...FolderVideos_folder @arguments(sort: $sort, order: $order)
      ...FolderAccounts_folder
    }
    ...FolderReports_query @arguments(folderId: $id)
  }
`;

/** The folder's parent as "Move to" lists it: the last of its ancestors, named by the path above it. */
function parentOf(ancestors: readonly { id: string; name: string }[]): PickerOption | null {
  const parent = ancestors.at(-1);
  return parent ? { id: parent.id, label: ancestors.map((a) => a.name).join(" / ") } : null;
}

export default function FolderPage() {
  const data = useRouteQuery<FolderPageQuery>(query);
  const f = data.folder;
  const { revalidate, state } = useRevalidator();
  const reload = () => void revalidate();
  const navigation = useNavigation();
  const pending = state === "loading" || navigation.state === "loading";
  const [params, setParams] = useSearchParams();
  const videoOptions = folderVideoOptions.read(params);
  // The box shows the choice at once (the URL being loaded), not after the analytics are read again.
  const withSubFolders = new URLSearchParams(navigation.location?.search ?? params.toString()).get("sub") === "1";
  const toggleSubFolders = (on: boolean) => {
    const next = new URLSearchParams(params);
    if (on) next.set("sub", "1");
    else next.delete("sub");
    setParams(next, { replace: true });
  };
  return (
    <div aria-busy={pending}>
      <nav aria-label="Breadcrumbs" className="breadcrumb">
        <ol className="crumbs">
          <li>
            <Link to={paths.folders()}>Folders</Link>
          </li>
          {f.ancestors.map((a) => (
            <li key={a.id}>
              <Link to={paths.folder(a.uuid)}>{a.name}</Link>
            </li>
          ))}
          <li aria-current="page">{f.name}</li>
        </ol>
      </nav>
      <PageHeader title={f.name}>
        <FolderActions
          folderId={f.id}
          folderUuid={f.uuid}
          parent={parentOf(f.ancestors)}
          name={f.name}
          childCount={f.childCount}
          onMoved={reload}
        />
      </PageHeader>
      <p className="muted">
        {plural(f.videoCount, "video")}, {plural(f.accountCount, "account")} and {plural(f.childCount, "sub-folder")}; created{" "}
        <Time value={f.createdAt} />.
      </p>
      <SubFolders folder={f} onChanged={reload} />
      {f.childCount > 0 && (
        <label className="select-all">
          <input type="checkbox" checked={withSubFolders} onChange={(e) => toggleSubFolders(e.target.checked)} /> Include sub-folders in the
          analytics
        </label>
      )}
      <FolderAnalytics folder={f} />
      <Panel title="Add to this folder">
        <AddToFolder folderId={f.id} onAdded={reload} />
      </Panel>
      <Panel title="Videos">
        <ExportButton
          kind="FOLDER_VIDEOS"
          what="the folder's videos"
          filter={{ folderId: f.id, sort: videoOptions.sort, order: videoOptions.order }}
        />
        <FolderVideos folder={f} onChanged={reload} />
      </Panel>
      <Panel title="Accounts">
        <ExportButton kind="FOLDER_ACCOUNTS" what="the folder's accounts" filter={{ folderId: f.id }} />
        <FolderAccounts folder={f} onChanged={reload} />
      </Panel>
      <FolderReports query={data} folderId={f.id} folderName={f.name} onChanged={reload} />
    </div>
  );
}
