import { describe, expect, it } from "vitest";
import { sharedProgramLimit } from "../../src/providers/process.js";

describe("sharedProgramLimit", () => {
  it("is one bound per program and size for the whole process, whoever asks for it", async () => {
    const fromScrape = sharedProgramLimit("stand-in", 3);
    const fromSearch = sharedProgramLimit("stand-in", 3);
    expect(fromSearch).toBe(fromScrape);
    expect(sharedProgramLimit("other-program", 3)).not.toBe(fromScrape);

    let running = 0;
    let peak = 0;
    const task = () => async () => {
      running++;
      peak = Math.max(peak, running);
      await new Promise((r) => setTimeout(r, 20));
      running--;
    };
    await Promise.all([...Array.from({ length: 5 }, () => fromScrape(task())), ...Array.from({ length: 5 }, () => fromSearch(task()))]);
    expect(peak).toBe(3);
  });
});
