-- What an analysis saw (issue 30, docs/contract/decisions.md "analysis, visual part"): where the hook
-- came from and the reasons of each judgement, the visual part (keyframes with their time and on-screen
-- text, the text hook, cuts and pacing, the share of keyframes with a face, which providers produced
-- them, what was skipped and why) as one JSON value beside the transcript's segments, and each
-- keyframe's small JPEG thumbnail in a table of its own, so reading an analysis never reads images.
-- Bounded: at most 32 thumbnails per analysis (VISUAL_MAX_KEYFRAMES is at most 32), each at most 32 KiB (the domain keeps within both:
-- src/domain/analysis/visual-part.ts), deleted with their analysis.

ALTER TABLE "video_analyses"
    ADD COLUMN "hook_source" TEXT,
    ADD COLUMN "reasons" JSONB,
    ADD COLUMN "visual" JSONB,
    ADD CONSTRAINT "analysis_hook_source_known" CHECK ("hook_source" IS NULL OR "hook_source" IN ('speech', 'screen', 'description')),
    ADD CONSTRAINT "analysis_reasons_array" CHECK ("reasons" IS NULL OR jsonb_typeof("reasons") = 'array'),
    ADD CONSTRAINT "analysis_visual_object" CHECK ("visual" IS NULL OR jsonb_typeof("visual") = 'object');

CREATE TABLE "video_analysis_thumbnails" (
    "analysis_id" UUID NOT NULL,
    "position" SMALLINT NOT NULL,
    "jpeg" BYTEA NOT NULL,
    CONSTRAINT "video_analysis_thumbnails_pkey" PRIMARY KEY ("analysis_id", "position"),
    CONSTRAINT "analysis_thumbnail_position" CHECK ("position" BETWEEN 0 AND 31),
    CONSTRAINT "analysis_thumbnail_size" CHECK (octet_length("jpeg") BETWEEN 1 AND 32768)
);
ALTER TABLE "video_analysis_thumbnails" ADD CONSTRAINT "video_analysis_thumbnails_analysis_id_fkey" FOREIGN KEY ("analysis_id") REFERENCES "video_analyses"("id") ON DELETE CASCADE ON UPDATE CASCADE;
