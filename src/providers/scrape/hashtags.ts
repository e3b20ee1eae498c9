/**
 * Hashtags as the service stores them: lower-cased, without "#", each once, in order of appearance.
 * Platforms treat hashtags case-insensitively, so "#FoodTok" and "#foodtok" are one tag.
 */

// Letters (with their combining marks), digits and "_", as the platforms allow in hashtags.
const HASHTAG = /#([\p{L}\p{M}\p{N}_]+)/gu;
const TAG_WORD = /^[\p{L}\p{M}\p{N}_]+$/u;

/** The hashtags written in a caption. An all-digit "#1" is a number, not a tag. */
export function hashtagsIn(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(HASHTAG)) {
    if (!/^\p{N}+$/u.test(match[1])) found.push(match[1]);
  }
  return normaliseTags(found);
}

/**
 * Merges the caption's hashtags with the tags a source lists separately. A listed tag that contains
 * spaces or punctuation ("how to cook") is a search keyword, not a hashtag, and is left out.
 */
export function mergeHashtags(description: string, listedTags: readonly string[]): string[] {
  const listed = listedTags.map((t) => t.trim().replace(/^#/, "")).filter((t) => TAG_WORD.test(t));
  return normaliseTags([...hashtagsIn(description), ...listed]);
}

function normaliseTags(tags: readonly string[]): string[] {
  return [...new Set(tags.map((t) => t.toLowerCase()))];
}
