import { render } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { Avatar, initialsOf } from "../../../web/components/ui/avatar";

describe("initials", () => {
  it("take the first letter of each name as a whole grapheme, skipping emoji and punctuation", () => {
    expect(initialsOf("🌸Nora", "Diaz")).toBe("ND");
    expect(initialsOf("🌸 Nora", "🐢")).toBe("N");
    expect(initialsOf("\"Émile\"", "Ösel")).toBe("ÉÖ");
    // A letter with a combining accent stays whole.
    expect(initialsOf("e\u0301va", null)).toBe("E\u0301");
    expect(initialsOf("李", "明")).toBe("李明");
  });

  it("fall back to ? when neither name has a letter, never half an emoji", () => {
    expect(initialsOf("🌸", "🎉")).toBe("?");
    const { container } = render(<Avatar firstName="👋🏽Ana" lastName="" />);
    expect(container.textContent).toBe("A");
    expect(container.textContent).not.toMatch(/[\uD800-\uDFFF]/);
  });
});
