import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { paths } from "../../../web/config/paths";
import { fakeApi, makeUser, notFound, renderApp, threadRoutes } from "../render";

const API = "/api/v1/messages";
const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status });
const empty = { data: [], pagination: { next_token: null, has_more: false } };
const signedIn = () => ({ token: "t", user: makeUser({ id: "me" }) });

describe("a message link to someone who cannot be reached", () => {
  it("without a listing, speaks of the person, not a listing owner", async () => {
    fakeApi({ ...threadRoutes("l1", "u2"),
      [`GET ${API}/conversations/enriched`]: empty,
      // No conversation with them yet.
      [`GET ${API}/conversations/with/nobody`]: notFound,
      [`POST ${API}/conversations`]: () => json({ detail: "User not found" }, 404),
    });
    renderApp("/messages?userId=nobody", signedIn());
    expect(await screen.findByText("This person can't be reached: the link may be out of date, or their account is gone.")).toBeInTheDocument();
    expect(screen.queryByText("Unable to contact listing owner")).toBeNull();
  });

  it("about a listing, still names its owner", async () => {
    fakeApi({ ...threadRoutes("l1", "u2"),
      [`GET ${API}/conversations/enriched`]: empty,
      // No conversation with them yet.
      [`GET ${API}/conversations/with/nobody`]: notFound,
      [`POST ${API}/conversations`]: () => json({ detail: "Listing not found" }, 404),
    });
    renderApp(paths.messages("nobody", "l1"), signedIn());
    expect(await screen.findByText("Unable to contact listing owner")).toBeInTheDocument();
  });
});
