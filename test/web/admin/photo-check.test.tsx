import { render, screen, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { PhotoCheck } from "../../../web/features/admin/components/photo-check";
import { makeAdminListing } from "../render";

const match = { listing_id: "l-first", owner_id: "owner-first", picture: "/api/v1/images/copy.jpg", matched_picture: "/api/v1/images/original.jpg" };

describe("staff's copied-photo check", () => {
  it("shows both photos side by side with the earlier listing and owner", () => {
    render(<PhotoCheck listing={{ ...makeAdminListing("l1"), photo_matches: [match], photo_check_pending: false }} asNotice />);
    const notice = screen.getByRole("region", { name: "Photos match another listing" });
    expect(within(notice).getByAltText("This listing's photo")).toHaveAttribute("src", match.picture);
    expect(within(notice).getByAltText("The earlier photo it matches")).toHaveAttribute("src", match.matched_picture);
    expect(notice).toHaveTextContent("First posted on listing l-first by owner owner-first");
  });

  it("says the check is pending until the photos are hashed, and nothing once clean", () => {
    const { unmount } = render(<PhotoCheck listing={{ ...makeAdminListing("l1"), photo_matches: [], photo_check_pending: true }} />);
    expect(screen.getByText("Photo check pending")).toBeInTheDocument();
    unmount();
    const { container } = render(<PhotoCheck listing={{ ...makeAdminListing("l1"), photo_matches: [], photo_check_pending: false }} />);
    expect(container).toBeEmptyDOMElement();
  });
});
