/**
 * The allowed values of an analysis's hook style, UGC fit and call-to-action type. The providers,
 * the OpenAPI document and the GraphQL enums are all built from these lists.
 */
export const HOOK_STYLES = {
  question: "Opens with a question to the viewer.",
  bold_claim: "Opens with a strong or contrarian statement.",
  statistic: "Opens with a number, figure or fact.",
  story: 'Opens a personal story or anecdote ("when I…", "the day…").',
  how_to: "Promises to teach or show how to do something.",
  curiosity_gap: 'Teases something withheld ("you won\'t believe…", "wait for it").',
  direct_address: 'Calls out a specific viewer ("if you\'re a…", "POV:").',
  none: "No recognisable hook in the first seconds.",
} as const;
export type HookStyle = keyof typeof HOOK_STYLES;
export const HOOK_STYLE_VALUES = Object.keys(HOOK_STYLES) as [HookStyle, ...HookStyle[]];

export const UGC_FITS = {
  high: "Reads as authentic user-generated content (first person, personal experience, casual).",
  medium: "Mixed: some personal voice, some polished or promotional elements.",
  low: "Reads as branded, scripted or advertising content.",
} as const;
export type UgcFit = keyof typeof UGC_FITS;
/** What `ugcConfidence` means, for the OpenAPI document, the GraphQL schema and the LLM prompt. */
export const UGC_CONFIDENCE_DESCRIPTION =
  "How sure the analysis is of its ugcFit judgement, as a percentage (integer 0-100): high when the evidence is plentiful and points one way, low when it is thin or mixed.";
export const UGC_FIT_VALUES = Object.keys(UGC_FITS) as [UgcFit, ...UgcFit[]];

export const CTA_TYPES = {
  follow: "Asks the viewer to follow the creator.",
  like: "Asks the viewer to like the video.",
  comment: "Asks the viewer to comment.",
  share: "Asks the viewer to share or save the video.",
  link_in_bio: "Points to a link in the creator's bio.",
  visit_url: "Points to a website or URL.",
  shop: "Asks the viewer to buy, shop or use a discount code.",
  subscribe: "Asks the viewer to subscribe or turn on notifications.",
  none: "No call to action found.",
} as const;
export type CtaType = keyof typeof CTA_TYPES;
export const CTA_TYPE_VALUES = Object.keys(CTA_TYPES) as [CtaType, ...CtaType[]];

export const HOOK_SOURCES = {
  speech: "Said in the first seconds (transcript).",
  screen: "Shown as on-screen text in the first seconds.",
  description: "The description's first sentence (no spoken or on-screen hook).",
} as const;
export type HookSource = keyof typeof HOOK_SOURCES;
export const HOOK_SOURCE_VALUES = Object.keys(HOOK_SOURCES) as [HookSource, ...HookSource[]];
