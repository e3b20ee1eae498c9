/**
 * A campaign's videos added or excluded by hand (whatever its filters say), each undone by an owner; an owner
 * adds or excludes any tracked video (pickers/VideoChoice.tsx: found by words, page by page; its query is the
 * campaign route's, for owners: app/routes.tsx).
 */
import { graphql, useFragment } from "react-relay";
import { Link } from "react-router";
import type { VideosByHand_campaign$key } from "../../__generated__/VideosByHand_campaign.graphql";
import type { VideosByHandQuery } from "../../__generated__/VideosByHandQuery.graphql";
import type { VideosByHandAddMutation } from "../../__generated__/VideosByHandAddMutation.graphql";
import type { VideosByHandExcludeMutation } from "../../__generated__/VideosByHandExcludeMutation.graphql";
import type { VideosByHandResetMutation } from "../../__generated__/VideosByHandResetMutation.graphql";
import { Outcome } from "../../components/Outcome";
import { Time } from "../../components/Time";
import { shortTitle } from "../../lib/format";
import { paths } from "../../lib/paths";
import { VideoChoice } from "../../pickers/VideoChoice";
import { perItem, useAction } from "../../relay/action";
import { useRouteQuery } from "../../relay/route-query";
import { Panel } from "../../components/Panel";

const campaignFragment = graphql`
  fragment VideosByHand_campaign on Campaign {
    id
    videosByHand {
      at
      mode
      videoId
      video {
        id
        uuid
        description
        username
      }
    }
  }
`;

/** The videos an owner may add or exclude: a query of the campaign's route. */
export const videosByHandQuery = graphql`
  query VideosByHandQuery {
    ...VideoChoice_query
  }
`;

const addVideos = graphql`
  mutation VideosByHandAddMutation($campaignId: ID!, $videoIds: [ID!]!) {
    addCampaignVideos(campaignId: $campaignId, videoIds: $videoIds) {
      ...action_bulkItem @relay(mask: false)
    }
  }
`;
const excludeVideos = graphql`
  mutation VideosByHandExcludeMutation($campaignId: ID!, $videoIds: [ID!]!) {
    excludeCampaignVideos(campaignId: $campaignId, videoIds: $videoIds) {
      ...action_bulkItem @relay(mask: false)
    }
  }
`;
const resetVideos = graphql`
  mutation VideosByHandResetMutation($campaignId: ID!, $videoIds: [ID!]!) {
    resetCampaignVideos(campaignId: $campaignId, videoIds: $videoIds)
  }
`;

interface Props {
  campaign: VideosByHand_campaign$key;
  canEdit: boolean;
  onChanged: () => void;
}

export function VideosByHand({ campaign, canEdit, onChanged }: Props) {
  const c = useFragment(campaignFragment, campaign);
  const add = useAction<VideosByHandAddMutation>(addVideos);
  const exclude = useAction<VideosByHandExcludeMutation>(excludeVideos);
  const reset = useAction<VideosByHandResetMutation>(resetVideos);
  const clear = () => [add, exclude, reset].forEach((a) => a.clear());

  async function mark(mode: "add" | "exclude", id: string) {
    clear();
    const variables = { campaignId: c.id, videoIds: [id] };
    const r =
      mode === "add"
        ? await add.run(variables, {
            failed: "Could not add the video",
            done: (d) =>
              perItem(
                d.addCampaignVideos,
                () => "Added the video by hand: it counts whatever its account or posting time.",
                "Could not add the video",
              ),
          })
        : await exclude.run(variables, {
            failed: "Could not exclude the video",
            done: (d) =>
              perItem(d.excludeCampaignVideos, () => "Excluded the video by hand: it never counts.", "Could not exclude the video"),
          });
    if (r) onChanged();
  }

  async function undo(id: string) {
    clear();
    const r = await reset.run(
      { campaignId: c.id, videoIds: [id] },
      { failed: "Could not undo", done: () => "Undone: the video counts by the campaign's filters again." },
    );
    if (r) onChanged();
  }

  return (
    <Panel title="Videos added or excluded by hand">
      {c.videosByHand.length === 0 ? (
        <p className="muted">None: the campaign's filters alone decide which videos count.</p>
      ) : (
        <ul className="plain-list">
          {c.videosByHand.map((v) => {
            const title = v.video ? shortTitle(v.video) : v.videoId;
            return (
              <li key={v.videoId} className="row">
                <span>
                  {v.mode === "ADDED" ? "Added" : "Excluded"}: {v.video ? <Link to={paths.video(v.video.uuid)}>{title}</Link> : title}{" "}
                  <span className="muted">
                    <Time value={v.at} />
                  </span>
                </span>
                {canEdit && (
                  <button
                    type="button"
                    disabled={reset.pending}
                    onClick={() => void undo(v.videoId)}
                    aria-label={`Undo: let “${title}” count by the filters again`}
                  >
                    Undo
                  </button>
                )}
              </li>
            );
          })}
        </ul>
      )}
      {canEdit && <MarkVideo busy={add.pending || exclude.pending} onMark={(mode, id) => void mark(mode, id)} />}
      <Outcome outcome={add.outcome ?? exclude.outcome ?? reset.outcome} />
    </Panel>
  );
}

/** The owner's picker: any tracked video, added or excluded by hand. */
function MarkVideo({ busy, onMark }: { busy: boolean; onMark: (mode: "add" | "exclude", id: string) => void }) {
  const choices = useRouteQuery<VideosByHandQuery>(videosByHandQuery);
  return (
    <VideoChoice query={choices} label="Tracked video" empty={null}>
      {(video) => (
        <>
          <button type="button" disabled={!video || busy} onClick={() => video && onMark("add", video.id)}>
            Add by hand
          </button>
          <button type="button" disabled={!video || busy} onClick={() => video && onMark("exclude", video.id)}>
            Exclude
          </button>
        </>
      )}
    </VideoChoice>
  );
}
