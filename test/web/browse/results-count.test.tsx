import { describe, expect, it } from "vitest";
import { resultsCount } from "../../../web/features/browse/components/browse-page";

describe("the results count", () => {
  it("is exact when every page is loaded, a round floor while more exist", () => {
    expect(resultsCount(53, false)).toBe("53 listings");
    expect(resultsCount(1, false)).toBe("1 listing");
    expect(resultsCount(53, true)).toBe("50+ listings");
    expect(resultsCount(15, true)).toBe("10+ listings");
    expect(resultsCount(40, true)).toBe("40+ listings");
    expect(resultsCount(7, true)).toBe("7+ listings");
  });
});
