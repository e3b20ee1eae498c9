/**
 * The transcript set: what the content analysis judges from text alone (hook style and phrase, call to action
 * and its destination, UGC fit), labelled as a person reading the transcript would say. Read by
 * bench/analysis-eval-transcripts.ts (`npm run bench -- analysis-eval-transcripts`; no video, seconds).
 *
 * Two parts:
 * - `tuning`: the 27 transcript cases of the evaluation set (./cases.ts), which today's rules were written on,
 *   and 33 new cases in the hook families and CTA forms the rules did not know (questions, numbered lists,
 *   relatable captions "me trying to …", challenges "I tried …", contrarian openings "nobody tells you …",
 *   CTAs with several keywords, "full video on YouTube", "follow for part 2"); the rules may be tuned on these;
 * - `heldOut`: 33 more new cases in other phrasings of the same families, written and fixed (in the same
 *   commit as the tuning part, before any rule was changed) and never looked at while tuning: they measure
 *   whether the rules generalise.
 *
 * Conventions of the labels: a numbered list ("5 things …", "three reasons …", "things I wish I knew …") is
 * `how_to`; a relatable caption ("me trying to …", "when your mom …") is `direct_address`, like "POV:"; a
 * challenge ("I tried X for a week", "day 12 of …") is `story`; a contrarian opening ("nobody tells you …",
 * "unpopular opinion", "everyone says X. You don't.") is `bold_claim`. "Full video on YouTube / my channel"
 * sends the viewer elsewhere: `visit_url` (no destination unless a URL is given). The hook phrase is the
 * opening sentence; "" when there is no hook (a call to action or a brand announcement first).
 */
import type { Expected } from "./cases.js";
import { CASES } from "./cases.js";

export interface TranscriptSetCase {
  id: string;
  transcript: string;
  description: string;
  expect: Expected;
  part: "tuning" | "heldOut";
}

type Label = [
  hookStyle: Expected["hookStyle"],
  hookPhrase: string,
  ctaType: Expected["ctaType"],
  url: string | null,
  ugcFit: Expected["ugcFit"],
];

function t(
  part: TranscriptSetCase["part"],
  id: string,
  transcript: string,
  [hookStyle, hookPhrase, ctaType, url, ugcFit]: Label,
  description = "",
) {
  return { id, part, transcript, description, expect: { hookStyle, hookPhrase, ctaType, ctaDestinationUrl: url, ugcFit } };
}

/** The evaluation set's transcript cases, as they are. */
const EARLIER: TranscriptSetCase[] = CASES.flatMap((c) =>
  c.kind === "transcript"
    ? [{ id: c.id, part: "tuning" as const, transcript: c.transcript, description: c.description, expect: c.expect }]
    : [],
);

const T = (id: string, transcript: string, label: Label, description = "") => t("tuning", id, transcript, label, description);
const H = (id: string, transcript: string, label: Label, description = "") => t("heldOut", id, transcript, label, description);

const NEW_TUNING: TranscriptSetCase[] = [
  T("q-planes-white", "Have you ever wondered why planes are white? It's about heat. Follow for more plane facts.", [
    "question",
    "Have you ever wondered why planes are white?",
    "follow",
    null,
    "medium",
  ]),
  T("q-used-tesla", "Is it worth buying a used Tesla in 2024? Here's my honest take after two years of owning one.", [
    "question",
    "Is it worth buying a used Tesla in 2024?",
    "none",
    null,
    "high",
  ]),
  T("list-five-apps", "Five apps I can't live without as a freelancer. Number one is Notion, obviously.", [
    "how_to",
    "Five apps I can't live without as a freelancer.",
    "none",
    null,
    "high",
  ]),
  T("list-own-or-rent", "Top 3 mistakes first-time home buyers make. Comment OWN or RENT and I'll send you my calculator.", [
    "how_to",
    "Top 3 mistakes first-time home buyers make.",
    "comment",
    null,
    "medium",
  ]),
  T("relatable-parallel-park", "Me trying to parallel park with people watching. It took four attempts lol.", [
    "direct_address",
    "Me trying to parallel park with people watching.",
    "none",
    null,
    "high",
  ]),
  T("relatable-food-at-home", "When your mom says we have food at home. The food at home: one onion.", [
    "direct_address",
    "When your mom says we have food at home.",
    "none",
    null,
    "medium",
  ]),
  T("challenge-bodybuilder", "I tried eating like a bodybuilder for 7 days. Day one was rough, I'm not gonna lie.", [
    "story",
    "I tried eating like a bodybuilder for 7 days.",
    "none",
    null,
    "high",
  ]),
  T("challenge-yes-day", "I said yes to everything for 24 hours. Full video on YouTube!", [
    "story",
    "I said yes to everything for 24 hours.",
    "visit_url",
    null,
    "high",
  ]),
  T("contrarian-renting", "Nobody tells you that renting is sometimes smarter than buying. Here's the math.", [
    "bold_claim",
    "Nobody tells you that renting is sometimes smarter than buying.",
    "none",
    null,
    "medium",
  ]),
  T("contrarian-resume", "Nobody is going to tell you this but your resume is too long. Cut it to one page. Follow for part 2.", [
    "bold_claim",
    "Nobody is going to tell you this but your resume is too long.",
    "follow",
    null,
    "medium",
  ]),
  T("contrarian-breakfast", "Unpopular opinion: breakfast is overrated. I haven't eaten it in three years and I feel great.", [
    "bold_claim",
    "Unpopular opinion: breakfast is overrated.",
    "none",
    null,
    "high",
  ]),
  T("cta-budget-or-save", "I built a budget that finally works. Comment BUDGET or SAVE and I'll DM you the template.", [
    "story",
    "I built a budget that finally works.",
    "comment",
    null,
    "high",
  ]),
  T("watch-dam", "Watch what happens when we open the dam. Full video on my channel.", [
    "curiosity_gap",
    "Watch what happens when we open the dam.",
    "visit_url",
    null,
    "medium",
  ]),
  T("sign-garden", "This is your sign to start the garden. Seeds are cheaper than therapy.", [
    "direct_address",
    "This is your sign to start the garden.",
    "none",
    null,
    "medium",
  ]),
  T("list-apartment", "Things that just make sense in my apartment. The fold-down desk is number one. Link's in my bio.", [
    "how_to",
    "Things that just make sense in my apartment.",
    "link_in_bio",
    null,
    "high",
  ]),
  T("stop-paper-towels", "Stop buying paper towels. Here's what I use instead and it lasts for months.", [
    "bold_claim",
    "Stop buying paper towels.",
    "none",
    null,
    "high",
  ]),
  T("q-lisbon", "How much does it cost to live in Lisbon? Rent alone is about 1200 euros.", [
    "question",
    "How much does it cost to live in Lisbon?",
    "none",
    null,
    "medium",
  ]),
  T("story-spent-week", "What I spent in a week as a nurse in New York. Monday, coffee, six dollars.", [
    "story",
    "What I spent in a week as a nurse in New York.",
    "none",
    null,
    "high",
  ]),
  T("challenge-day-12", "Day 12 of learning guitar until I can play Wonderwall. Today it's the F chord.", [
    "story",
    "Day 12 of learning guitar until I can play Wonderwall.",
    "none",
    null,
    "high",
  ]),
  T("address-oily-skin", "If you have oily skin, this is your sign to try double cleansing. Shop the cleanser at purelab.co.", [
    "direct_address",
    "If you have oily skin, this is your sign to try double cleansing.",
    "shop",
    "https://purelab.co",
    "medium",
  ]),
  T("list-dog-bored", "Three signs your dog is bored. One, chewing. Two, digging. Save this for later.", [
    "how_to",
    "Three signs your dog is bored.",
    "share",
    null,
    "medium",
  ]),
  T("claim-not-lazy", "You're not lazy, you're tired. Rest is productive too.", [
    "bold_claim",
    "You're not lazy, you're tired.",
    "none",
    null,
    "medium",
  ]),
  T("address-girls-running", "Girls who hate running, try this. It's a 20 minute walk-run plan. Follow me for the rest of the week.", [
    "direct_address",
    "Girls who hate running, try this.",
    "follow",
    null,
    "medium",
  ]),
  T("story-landlord", "My landlord just texted me this. I can't believe what he wants now.", [
    "story",
    "My landlord just texted me this.",
    "none",
    null,
    "high",
  ]),
  T(
    "howto-interview",
    "Do this before your next job interview. Research the person, not the company. Send this to a friend who's job hunting.",
    ["how_to", "Do this before your next job interview.", "share", null, "medium"],
  ),
  T("howto-cheapest-japan", "The cheapest way to fly to Japan right now. Book the flight through Seoul.", [
    "how_to",
    "The cheapest way to fly to Japan right now.",
    "none",
    null,
    "medium",
  ]),
  T("stat-chopsticks", "Ninety nine percent of people hold their chopsticks wrong. Here's the right way.", [
    "statistic",
    "Ninety nine percent of people hold their chopsticks wrong.",
    "none",
    null,
    "medium",
  ]),
  T("pov-oldest-daughter", "POV: you're the oldest daughter. Comment if this is you.", [
    "direct_address",
    "POV: you're the oldest daughter.",
    "comment",
    null,
    "medium",
  ]),
  T("wait-kitchen", "Wait until you see the before and after. We gutted the whole kitchen. Everything we used is linked in my bio.", [
    "curiosity_gap",
    "Wait until you see the before and after.",
    "link_in_bio",
    null,
    "high",
  ]),
  T("q-extra-hour", "What would you do with an extra hour a day? I started waking up at five.", [
    "question",
    "What would you do with an extra hour a day?",
    "none",
    null,
    "high",
  ]),
  T("challenge-blenders", "We tested five cheap blenders so you don't have to. Full review on our YouTube channel.", [
    "story",
    "We tested five cheap blenders so you don't have to.",
    "visit_url",
    null,
    "medium",
  ]),
  T("brand-aero", "Introducing the all-new Aero bottle. Designed to keep drinks cold for 24 hours. Order yours today at aerobottle.com.", [
    "none",
    "",
    "shop",
    "https://aerobottle.com",
    "low",
  ]),
  T("claim-pineapple", "Hear me out: pineapple belongs on pizza. Tag someone who disagrees.", [
    "bold_claim",
    "Hear me out: pineapple belongs on pizza.",
    "share",
    null,
    "medium",
  ]),
];

const HELD_OUT: TranscriptSetCase[] = [
  H("h-q-sourdough", "Why does my sourdough keep collapsing? I finally figured it out after twenty loaves.", [
    "question",
    "Why does my sourdough keep collapsing?",
    "none",
    null,
    "high",
  ]),
  H("h-q-anyone-else", "Anyone else's cat do this at 3am? He just stares at the wall.", [
    "question",
    "Anyone else's cat do this at 3am?",
    "none",
    null,
    "high",
  ]),
  H("h-list-seven-habits", "7 habits that changed my mornings. Number four surprised me the most.", [
    "how_to",
    "7 habits that changed my mornings.",
    "none",
    null,
    "high",
  ]),
  H("h-list-dishwasher", "Ten things you should never put in the dishwasher. Save this so you remember.", [
    "how_to",
    "Ten things you should never put in the dishwasher.",
    "share",
    null,
    "medium",
  ]),
  H("h-relatable-job", "Me trying to explain my job to my parents. They still think I fix computers.", [
    "direct_address",
    "Me trying to explain my job to my parents.",
    "none",
    null,
    "high",
  ]),
  H("h-relatable-dads", "Dads trying to assemble furniture without the manual. It always ends the same way.", [
    "direct_address",
    "Dads trying to assemble furniture without the manual.",
    "none",
    null,
    "medium",
  ]),
  H("h-challenge-pasta", "I tried the viral pasta hack for a week. Honestly it's not worth it.", [
    "story",
    "I tried the viral pasta hack for a week.",
    "none",
    null,
    "high",
  ]),
  H("h-challenge-marathon", "I ran a marathon with zero training. Do not recommend. Follow for part 2.", [
    "story",
    "I ran a marathon with zero training.",
    "follow",
    null,
    "high",
  ]),
  H("h-contrarian-lonely", "Nobody talks about how lonely working from home gets. Let me know below if you feel this too.", [
    "bold_claim",
    "Nobody talks about how lonely working from home gets.",
    "comment",
    null,
    "medium",
  ]),
  H("h-contrarian-say-it", "No one is going to say it, so I will: most productivity apps are useless.", [
    "bold_claim",
    "No one is going to say it, so I will: most productivity apps are useless.",
    "none",
    null,
    "medium",
  ]),
  H("h-contrarian-everyone-says", "Everyone says you need a budget. You don't. You need a plan.", [
    "bold_claim",
    "Everyone says you need a budget.",
    "none",
    null,
    "medium",
  ]),
  H("h-cta-car-lease", "I made a calculator for this. Comment CAR or LEASE and I'll send it to you.", [
    "story",
    "I made a calculator for this.",
    "comment",
    null,
    "high",
  ]),
  H("h-cta-book-film", "Drop BOOK or FILM below and I'll send you my list.", ["none", "", "comment", null, "medium"]),
  H("h-watch-till-end", "Watch till the end, the last one shocked me. These are my top budget finds. Full video on YouTube.", [
    "curiosity_gap",
    "Watch till the end, the last one shocked me.",
    "visit_url",
    null,
    "high",
  ]),
  H("h-howto-saved-10k", "How I saved 10k in one year on a normal salary. Step one, automate it. Follow for part two.", [
    "how_to",
    "How I saved 10k in one year on a normal salary.",
    "follow",
    null,
    "high",
  ]),
  H("h-q-masters", "Is a master's degree worth it? Short answer, it depends. Subscribe for the long answer.", [
    "question",
    "Is a master's degree worth it?",
    "subscribe",
    null,
    "medium",
  ]),
  H("h-address-ghosted", "This is for everyone who's been ghosted. It's not you.", [
    "direct_address",
    "This is for everyone who's been ghosted.",
    "none",
    null,
    "medium",
  ]),
  H("h-address-night-shift", "If you work night shifts, you need this lamp. Use code NIGHT15 for 15 percent off.", [
    "direct_address",
    "If you work night shifts, you need this lamp.",
    "shop",
    null,
    "medium",
  ]),
  H("h-brand-sale", "Our biggest sale of the year starts now. Shop now at northwind.com.", [
    "none",
    "",
    "shop",
    "https://northwind.com",
    "low",
  ]),
  H("h-curiosity-coffee", "Here's what happened when I stopped drinking coffee for a month. Spoiler: headaches.", [
    "curiosity_gap",
    "Here's what happened when I stopped drinking coffee for a month.",
    "none",
    null,
    "high",
  ]),
  H("h-list-plants", "Three reasons your plants keep dying. Reason one, too much water. Link in bio for my plant care guide.", [
    "how_to",
    "Three reasons your plants keep dying.",
    "link_in_bio",
    null,
    "medium",
  ]),
  H("h-list-berlin", "Things I wish I knew before moving to Berlin. Registering your address takes weeks.", [
    "how_to",
    "Things I wish I knew before moving to Berlin.",
    "none",
    null,
    "high",
  ]),
  H("h-pov-room", "Pov: you finally cleaned your room and your mom still isn't impressed. Share this with your sister.", [
    "direct_address",
    "Pov: you finally cleaned your room and your mom still isn't impressed.",
    "share",
    null,
    "high",
  ]),
  H("h-q-planner", "How many of you still use a paper planner? I can't switch to digital.", [
    "question",
    "How many of you still use a paper planner?",
    "none",
    null,
    "high",
  ]),
  H("h-contrarian-airports", "Unpopular opinion but airports are the best place to work. Fight me in the comments.", [
    "bold_claim",
    "Unpopular opinion but airports are the best place to work.",
    "comment",
    null,
    "medium",
  ]),
  H("h-story-flight-attendant", "My first week as a flight attendant. Nobody warned me about the jet lag.", [
    "story",
    "My first week as a flight attendant.",
    "none",
    null,
    "high",
  ]),
  H("h-howto-fitted-sheet", "Here is exactly how to fold a fitted sheet. Corners inside each other first.", [
    "how_to",
    "Here is exactly how to fold a fitted sheet.",
    "none",
    null,
    "medium",
  ]),
  H("h-stat-pareto", "Eighty percent of your results come from twenty percent of your work. Find that twenty percent.", [
    "statistic",
    "Eighty percent of your results come from twenty percent of your work.",
    "none",
    null,
    "medium",
  ]),
  H("h-challenge-day-30", "Day 30 of posting until I get a job in tech. Still no offers.", [
    "story",
    "Day 30 of posting until I get a job in tech.",
    "none",
    null,
    "high",
  ]),
  H("h-rate-setup", "Rate my setup from one to ten in the comments. I spent way too much on the lights.", [
    "none",
    "",
    "comment",
    null,
    "high",
  ]),
  H("h-claim-onions", "You've been cutting onions wrong your whole life. Try this instead. Follow for more kitchen tips.", [
    "bold_claim",
    "You've been cutting onions wrong your whole life.",
    "follow",
    null,
    "medium",
  ]),
  H("h-cta-pdf-first", "Comment PDF and I'll send you the free workout guide. This is week one of the program.", [
    "none",
    "",
    "comment",
    null,
    "medium",
  ]),
  H("h-full-tutorial", "The full tutorial is on my YouTube, this is just the quick version. Mix the flour and water first.", [
    "none",
    "",
    "visit_url",
    null,
    "medium",
  ]),
];

export const TRANSCRIPT_SET: TranscriptSetCase[] = [...EARLIER, ...NEW_TUNING, ...HELD_OUT];
