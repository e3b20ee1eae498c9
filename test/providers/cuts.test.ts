/**
 * `changeWithinPicture` (src/providers/vision/cuts.ts) on drawn 96×96 frames: what it takes for something coming onto a
 * backdrop that stays, what it leaves a cut, and the limit it is known to have. The real clips' cases are in
 * ./vision.test.ts.
 */
import { describe, expect, it } from "vitest";
import { changeWithinPicture } from "../../src/providers/vision/cuts.js";

const SIZE = 96;
const all = new Uint8Array(SIZE * SIZE).fill(1);

/** A flat frame of one grey level. */
const flat = (level: number) => new Uint8Array(SIZE * SIZE).fill(level);

/** The same detail (a fixed pseudo-random texture, 40-220) drawn at (x, y), w × h, over `frame`; returns `frame`. */
function textured(frame: Uint8Array, x: number, y: number, w: number, h: number, seed = 7): Uint8Array {
  let state = seed;
  for (let j = 0; j < h; j++)
    for (let i = 0; i < w; i++) {
      state = (state * 1103515245 + 12345) % 2147483648;
      frame[(y + j) * SIZE + x + i] = 40 + (state % 181);
    }
  return frame;
}

describe("a change within the picture", () => {
  it("takes a pop-up drawn onto a flat desktop for one", () => {
    expect(changeWithinPicture(flat(200), textured(flat(200), 30, 40, 36, 24), all, SIZE)).toBe(true);
  });

  it("leaves a jump cut: the same detailed subject a little to the side, in front of a plain wall", () => {
    expect(changeWithinPicture(textured(flat(200), 16, 20, 60, 50), textured(flat(200), 22, 20, 60, 50), all, SIZE)).toBe(false);
  });

  it("leaves a new shot, and judges nothing where nothing moves", () => {
    expect(changeWithinPicture(textured(flat(0), 0, 0, SIZE, SIZE, 1), textured(flat(0), 0, 0, SIZE, SIZE, 2), all, SIZE)).toBe(false);
    expect(changeWithinPicture(flat(200), textured(flat(200), 30, 40, 36, 24), new Uint8Array(SIZE * SIZE), SIZE)).toBe(false);
  });

  it("does not judge a dim change on the few pixels that changed much", () => {
    // Half the frame dims by 10 levels (no pixel of it counts as changed), and 20 pixels of it by 30, on flat ground.
    const before = flat(60);
    const after = flat(60);
    for (let p = 0; p < (SIZE * SIZE) / 2; p++) after[p] = p < 20 ? 30 : 50;
    expect(changeWithinPicture(before, after, all, SIZE)).toBe(false);
  });

  it("takes a cut between two products on one white backdrop, not overlapping, for a change within the picture (a known limit)", () => {
    expect(changeWithinPicture(textured(flat(250), 8, 30, 30, 30), textured(flat(250), 58, 30, 30, 30, 3), all, SIZE)).toBe(true);
  });
});
