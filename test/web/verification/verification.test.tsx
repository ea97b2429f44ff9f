import { screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import { fakeApi, makeUser, renderApp } from "../render";

describe("the identity verification page", () => {
  it("ID verification refuses a text file named .jpg when picked, with no preview", async () => {
    fakeApi({ "GET /api/v1/verification/status": { data: { status: "unverified", latest_request: null } } });
    vi.stubGlobal("createImageBitmap", async (file: File) => {
      if (file.name === "id.jpg") throw new Error("decode failed");
      return { close() {} };
    });
    URL.createObjectURL = () => "blob:preview";
    URL.revokeObjectURL = () => {};
    const user = userEvent.setup({ applyAccept: false });
    const { container } = renderApp("/verification", { token: "t", user: makeUser() });
    await screen.findByRole("button", { name: "Submit for Review" });
    const input = container.querySelector<HTMLInputElement>('input[type="file"]')!;
    await user.upload(input, new File(["just some text"], "id.jpg", { type: "image/jpeg" }));
    expect(await screen.findByText(/^id\.jpg could not be opened as an image/)).toHaveAttribute("role", "alert");
    expect(screen.queryByRole("img", { name: "Preview of your document" })).toBeNull();
    await user.upload(input, new File(["jpeg"], "card.jpg", { type: "image/jpeg" }));
    expect(await screen.findByRole("img", { name: "Preview of your document" })).toBeInTheDocument();
    expect(screen.queryByText(/could not be opened/)).toBeNull();
    vi.unstubAllGlobals();
  });

  it("a non-image document says what is wrong with it, also when Submit is pressed after it, never \"Please select a document\"", async () => {
    fakeApi({ "GET /api/v1/verification/status": { data: { status: "unverified", latest_request: null } } });
    const user = userEvent.setup({ applyAccept: false });
    const { container } = renderApp("/verification", { token: "t", user: makeUser() });
    const submit = await screen.findByRole("button", { name: "Submit for Review" });
    const input = container.querySelector<HTMLInputElement>('input[type="file"]')!;
    const wrong = "notes.txt can't be used. Invalid file type. Only JPEG, PNG, WebP, and PDF files are allowed.";
    await user.upload(input, new File(["just some text"], "notes.txt", { type: "text/plain" }));
    expect(await screen.findByText(wrong)).toHaveAttribute("role", "alert");
    await user.click(submit);
    expect(screen.getByText(wrong)).toBeInTheDocument();
    expect(screen.queryByText("Please select a document to upload.")).toBeNull();
    // An empty file is named too; with nothing picked at all, the spec's message.
    await user.upload(input, new File([], "scan.pdf", { type: "application/pdf" }));
    expect(await screen.findByText("scan.pdf can't be used. The file is empty. Please choose a JPEG, PNG, WebP or PDF file.")).toBeInTheDocument();
  });

  it("with nothing picked, Submit asks for a document", async () => {
    fakeApi({ "GET /api/v1/verification/status": { data: { status: "unverified", latest_request: null } } });
    const user = userEvent.setup();
    renderApp("/verification", { token: "t", user: makeUser() });
    await user.click(await screen.findByRole("button", { name: "Submit for Review" }));
    expect(await screen.findByText("Please select a document to upload.")).toBeInTheDocument();
  });
});
