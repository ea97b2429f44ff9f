import { QueryClientProvider } from "@tanstack/react-query";
import { render, screen, waitFor, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { ReactNode } from "react";
import { describe, expect, it } from "vitest";
import { createQueryClient } from "../../../web/app/providers";
import { adminSession } from "../../../web/features/admin/api/admin-api";
import { PhotoCheck } from "../../../web/features/admin/components/photo-check";
import { callsOf, fakeApi, makeAdminListing, reply } from "../render";

const match = {
  listing_id: "l-first",
  owner_id: "owner-first",
  owner_name: "Jordan Kim",
  picture: "/api/v1/images/copy.jpg",
  posted_at: "2026-11-20T10:00:00.000Z",
  matched_picture: "/api/v1/images/original.jpg",
  matched_posted_at: "2026-03-02T10:00:00.000Z",
};
const checked = (over: object) => ({ ...makeAdminListing("l1"), photo_matches: [], photo_check_pending: false, photos_not_compared: [], review_reason: null, ...over });
const withClient = (ui: ReactNode) => render(<QueryClientProvider client={createQueryClient()}>{ui}</QueryClientProvider>);

describe("staff's copied-photo check", () => {
  it("shows both photos side by side with the owners and dates, and the stored reason", () => {
    withClient(<PhotoCheck listing={checked({ photo_matches: [match], review_reason: "Photos match another listing" })} asNotice />);
    const notice = screen.getByRole("region", { name: "Photo check" });
    expect(within(notice).getByText("Photos match another listing")).toBeInTheDocument();
    expect(within(notice).getByAltText("This listing's photo")).toHaveAttribute("src", match.picture);
    expect(within(notice).getByAltText("The earlier photo it matches")).toHaveAttribute("src", match.matched_picture);
    expect(notice).toHaveTextContent("First posted 2026-03-02 on listing l-first by Jordan Kim");
    expect(notice).toHaveTextContent("posted 2026-11-20");
  });

  it("Not a copy sends the pair; a refusal shows the server's detail", async () => {
    adminSession.set("staff-token");
    let refuse = true;
    const calls = fakeApi({
      "POST /api/v1/admin/listings/l1/photo-matches/not-a-copy": () => (refuse ? reply({ detail: "This listing has no such photo match." }, 404) : { success: true }),
    });
    const user = userEvent.setup();
    withClient(<PhotoCheck listing={checked({ photo_matches: [match] })} asNotice />);
    await user.click(screen.getByRole("button", { name: "Not a copy" }));
    expect(await screen.findByRole("alert")).toHaveTextContent("This listing has no such photo match.");
    refuse = false;
    await user.click(screen.getByRole("button", { name: "Not a copy" }));
    await waitFor(() => expect(callsOf(calls, "POST /api/v1/admin/listings/l1/photo-matches/not-a-copy")).toHaveLength(2));
    const sent = callsOf(calls, "POST /api/v1/admin/listings/l1/photo-matches/not-a-copy")[1]!;
    expect(sent.body).toEqual({ picture: match.picture, matched_picture: match.matched_picture });
    expect(sent.authorization).toBe("Bearer staff-token");
  });

  it("says the check is pending, names pictures not compared, and shows nothing once clean", () => {
    const { unmount } = withClient(<PhotoCheck listing={checked({ photo_check_pending: true, photos_not_compared: ["/api/v1/images/a.webp"] })} asNotice />);
    expect(screen.getByText("Photo check pending")).toBeInTheDocument();
    expect(screen.getByText(/1 photo\(s\) not compared: WebP and GIF/)).toBeInTheDocument();
    unmount();
    const tile = withClient(<PhotoCheck listing={checked({ photo_matches: [match] })} />);
    expect(screen.getByText("Photos match another listing (1)")).toBeInTheDocument();
    tile.unmount();
    const { container } = withClient(<PhotoCheck listing={checked({})} asNotice />);
    expect(container).toBeEmptyDOMElement();
  });
});
