import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { useState } from "react";
import { describe, expect, it } from "vitest";
import { Gallery } from "../../../web/features/listing/components/gallery";

const photos = ["/a.jpg", "/b.jpg", "/c.jpg"];

function Page() {
  const [start, setStart] = useState<number | null>(null);
  return (
    <>
      <button type="button" onClick={() => setStart(1)}>
        Open photo 2
      </button>
      <Gallery key={start ?? "closed"} images={photos} title="Sunny room" start={start} onClose={() => setStart(null)} />
    </>
  );
}

describe("the fullscreen gallery from the keyboard", () => {
  it("Home and End go to the first and last photo; Escape gives focus back to what opened it", async () => {
    const ui = userEvent.setup();
    render(<Page />);
    const opener = screen.getByRole("button", { name: "Open photo 2" });
    await ui.click(opener);
    expect(screen.getByRole("button", { name: "Close gallery" })).toHaveFocus();
    expect(screen.getByRole("img", { name: /photo 2 of 3/ })).toBeInTheDocument();
    await ui.keyboard("{End}");
    expect(screen.getByRole("img", { name: /photo 3 of 3/ })).toBeInTheDocument();
    await ui.keyboard("{Home}");
    expect(screen.getByRole("img", { name: /photo 1 of 3/ })).toBeInTheDocument();
    await ui.keyboard("{Escape}");
    expect(screen.queryByRole("dialog")).toBeNull();
    expect(opener).toHaveFocus();
  });
});
