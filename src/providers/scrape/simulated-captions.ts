/**
 * Captions for simulated videos that read like real short-video captions: a hook, a line of
 * substance, sometimes a call to action, then hashtags. The analysis feature treats a simulated
 * video's description as its captions, so these are what its hook, CTA and UGC rules get to read.
 * Every sentence ends with punctuation so that sentence splitting finds them.
 */

/** A source of uniform numbers in [0, 1); simulated data passes a seeded one. */
export type Random = () => number;

interface Niche {
  hooks: string[];
  bodies: string[];
  /** Said in calls to action: "Follow for more …". */
  more: string;
  /** What a "link in bio" or "comment and I'll send it" leads to. */
  offer: string;
  keyword: string;
  tags: string[];
}

const NICHES: Niche[] = [
  {
    hooks: [
      "POV: you finally found a 10-minute dinner that tastes like a restaurant.",
      "Stop scrolling if you have pasta and one lemon.",
      "I cooked this for a week straight and I'm not sorry.",
    ],
    bodies: [
      "Garlic, butter, lemon zest and a splash of pasta water is the whole secret.",
      "Crisp the gnocchi first, then toss everything in the same pan.",
      "It costs about three dollars a serving and there is only one pan to wash.",
    ],
    more: "easy dinners",
    offer: "full recipe",
    keyword: "RECIPE",
    tags: ["easyrecipes", "dinnerideas", "pasta", "foodtok", "homecooking", "mealprep"],
  },
  {
    hooks: [
      "Nobody tells you this about building muscle after thirty.",
      "Three exercises I wish I had started years ago.",
      "This is your sign to stop skipping leg day.",
    ],
    bodies: [
      "Slow the lowering part of every rep to three seconds and the weight feels twice as heavy.",
      "Do them twice a week, eight to twelve reps, and add weight when it gets easy.",
      "Form first, then load, then volume. In that order.",
    ],
    more: "no-nonsense training tips",
    offer: "free 4-week plan",
    keyword: "PLAN",
    tags: ["fitness", "gymtok", "strengthtraining", "workout", "fitover30", "legday"],
  },
  {
    hooks: [
      "This hidden phone setting saves me an hour a day.",
      "You are using your laptop wrong, and here is the fix.",
      "I tested five budget earbuds so you don't have to.",
    ],
    bodies: [
      "Turn on focus filters and only the apps you pick can ping you.",
      "The forty-dollar pair beat the one that costs three times as much.",
      "It takes thirty seconds to set up and you never have to touch it again.",
    ],
    more: "tech tips",
    offer: "full comparison",
    keyword: "TECH",
    tags: ["techtok", "techtips", "gadgets", "productivity", "iphonetips", "review"],
  },
  {
    hooks: [
      "The cheapest way to see Lisbon, from someone who lives here.",
      "Don't book a hotel in Tokyo before you watch this.",
      "I spent 48 hours in this tiny mountain town and I'm moving.",
    ],
    bodies: [
      "Take the tram at sunrise, before the tour groups wake up.",
      "Stay one stop outside the centre and pay half for twice the space.",
      "The best meal of the trip cost eight euros at a place with no sign.",
    ],
    more: "budget travel",
    offer: "full itinerary",
    keyword: "TRIP",
    tags: ["travel", "traveltok", "budgettravel", "hiddengems", "travelguide", "wanderlust"],
  },
  {
    hooks: [
      "My skin changed when I stopped doing this one thing.",
      "Dermatologist-approved routine for under twenty dollars.",
      "Get ready with me, the five-minute version.",
    ],
    bodies: [
      "Sunscreen every single morning matters more than any serum.",
      "Cleanser, moisturiser, SPF. That is genuinely the whole routine.",
      "I tried it for thirty days and took a photo every morning.",
    ],
    more: "simple skincare",
    offer: "product list",
    keyword: "SKIN",
    tags: ["skincare", "skincareroutine", "grwm", "beautytok", "selfcare", "glowup"],
  },
  {
    hooks: [
      "How I saved my first ten thousand on an average salary.",
      "The money rule nobody taught you in school.",
      "Three apps that quietly drain your bank account.",
    ],
    bodies: [
      "Pay yourself first: the transfer goes out the day the salary comes in.",
      "Cancel what you forgot you pay for, then move that money to savings.",
      "Fifty percent needs, thirty percent wants, twenty percent future you.",
    ],
    more: "money tips",
    offer: "free budget template",
    keyword: "BUDGET",
    tags: ["personalfinance", "moneytok", "budgeting", "savingmoney", "financetips", "sidehustle"],
  },
  {
    hooks: [
      "My dog learned this trick in one afternoon.",
      "Rating my cat's sleeping spots, day four.",
      "What my rescue pup looked like on day one versus today.",
    ],
    bodies: [
      "Short sessions, lots of treats, and stop before either of you gets bored.",
      "The cardboard box wins again, obviously.",
      "Patience and a routine did more than any expensive toy.",
    ],
    more: "daily pet content",
    offer: "training guide",
    keyword: "PUPPY",
    tags: ["dogsoftiktok", "catsoftiktok", "petlife", "rescuedog", "dogtraining", "cute"],
  },
];

const PLATFORM_TAGS = { platformA: "fyp", platformB: "shorts", platformC: "reels" } as const;

function pick<T>(random: Random, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)];
}

/** 2 to 5 distinct tags of the niche, in a seeded order. */
function pickTags(random: Random, tags: readonly string[]): string[] {
  const pool = [...tags];
  const chosen: string[] = [];
  const n = 2 + Math.floor(random() * 4);
  while (chosen.length < n && pool.length) chosen.push(pool.splice(Math.floor(random() * pool.length), 1)[0]);
  return chosen;
}

function callToAction(random: Random, niche: Niche): string {
  return pick(random, [
    `Follow for more ${niche.more}!`,
    "Save this for later!",
    `Link in bio for the ${niche.offer}.`,
    `Comment "${niche.keyword}" and I'll send you the ${niche.offer}.`,
    "Share this with a friend who needs it!",
  ]);
}

/** How many topics captions are written about; a creator sticks to one (see simulatedCaption). */

/**
 * A caption, deterministic for a given sequence of `random`. About half carry a call to action.
 * `nicheHint` (any integer), when given, fixes the topic, so that one creator's videos share one.
 */
export function simulatedCaption(random: Random, platform: keyof typeof PLATFORM_TAGS, nicheHint?: number): string {
  const drawn = pick(random, NICHES);
  const niche = nicheHint === undefined ? drawn : NICHES[nicheHint % NICHES.length];
  const parts = [pick(random, niche.hooks), pick(random, niche.bodies)];
  if (random() < 0.5) parts.push(callToAction(random, niche));
  const tags = pickTags(random, niche.tags);
  if (random() < 0.4) tags.push(PLATFORM_TAGS[platform]);
  return `${parts.join(" ")} ${tags.map((t) => `#${t}`).join(" ")}`;
}

const NAME_FIRST = ["sunny", "urban", "little", "daily", "happy", "cozy", "wild", "quiet", "bold", "lazy"];
const NAME_SECOND = ["kitchen", "lifts", "pixels", "trails", "glow", "coins", "paws", "studio", "notes", "days"];

/** A made-up handle that fits every platform's username rules. */
export function simulatedUsername(random: Random): string {
  return `${pick(random, NAME_FIRST)}.${pick(random, NAME_SECOND)}${Math.floor(random() * 100)}`;
}
