/**
 * Imported first by the test files about seeing the video: the visual stage on, as deployed. Every
 * other file runs analyses transcript-only (test/setup/per-file.ts sets VISUAL_ANALYSIS=false), since
 * the stage costs a second or two per analysis; this runs before the configuration is first imported.
 */
process.env.VISUAL_ANALYSIS = "true";
