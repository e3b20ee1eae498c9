-- The transcript as evidence: its language (BCP 47, null when unknown), how sure the recogniser was of it (0-1,
-- null when it does not say: platform captions), whether the content analysis judged from it, and why not
-- (no audio stream, speech below the confidence floor, words that do not read as the recogniser's language).
-- Additive: analyses made before have nulls.
ALTER TABLE "video_analyses"
    ADD COLUMN "transcript_language" TEXT,
    ADD COLUMN "transcript_confidence" DOUBLE PRECISION,
    ADD COLUMN "transcript_used" BOOLEAN,
    ADD COLUMN "transcript_note" TEXT,
    ADD CONSTRAINT "analysis_transcript_confidence_range" CHECK ("transcript_confidence" IS NULL OR ("transcript_confidence" >= 0 AND "transcript_confidence" <= 1));
