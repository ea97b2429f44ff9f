/** The listing form (create and edit): its fields and rules, photos, dates, the roommate preference, the review warning. */
import { fireEvent, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { afterEach, describe, expect, it, vi } from "vitest";
import { GENDER_PREFERENCE_TEXTS } from "@contract/forms";
import type { OwnerListing } from "@contract/listings";
import { validateListing } from "../../../web/features/listing-form/components/listing-form";
import { fileProblem, fitWithin, MESSAGES, pickPhotos, uploadPhotos } from "../../../web/lib/upload";
import { fakeApi, makeOwnerListing, makeUser, notFound, renderApp } from "../render";

const API = "/api/v1";
const universities = { data: [{ id: 1, name: "University of Florida", abbreviation: "UF" }] };
const utAustin = { data: [{ id: 1, name: "University of Texas at Austin", abbreviation: "UT Austin" }] };
const preferenceSelect = () => screen.queryByRole("combobox", { name: "Roommate gender preference" });

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe("listing form rules", () => {
  const fields = {
    title: "Sunny room",
    description: "Nice",
    unit_type: "2x2",
    monthly_rent: "800",
    address: "1 Main St",
    lease_term: "fall",
    available_from: "",
    available_to: "",
    university_id: "1",
    parking: false,
    allow_pets: false,
    gender_preference: "no_preference",
  };
  it("validates with the spec's messages", () => {
    expect(validateListing(fields, 1)).toEqual({});
    expect(validateListing(fields, 0)).toEqual({ photos: "Please upload at least one photo" });
    expect(validateListing({ ...fields, title: "x".repeat(36) }, 1)).toEqual({ title: "Title must be at most 35 characters" });
    expect(validateListing({ ...fields, monthly_rent: "0" }, 1)).toEqual({ monthly_rent: "Monthly rent must be at least 1" });
    expect(validateListing(fields, 11)).toEqual({ photos: "Maximum 10 photos allowed" });
  });

  it("checks each photo: empty, type (mobile and desktop wording), size, naming the file", () => {
    const file = (name: string, type: string, size = 100) => {
      const f = new File(["x"], name, { type });
      Object.defineProperty(f, "size", { value: size });
      return f;
    };
    expect(fileProblem(file("a.jpg", "image/jpeg"), false)).toBeNull();
    expect(fileProblem(file("a.jpg", "image/jpeg", 0), false)).toBe("a.jpg is empty. Please select valid image files.");
    expect(fileProblem(file("a.pdf", "application/pdf"), false)).toBe(`a.pdf is not an image. ${MESSAGES.invalidDesktop}`);
    expect(fileProblem(file("a.pdf", "application/pdf"), true)).toBe(`a.pdf is not an image. ${MESSAGES.invalidMobile}`);
    expect(fileProblem(file("a.jpg", "image/jpeg", 10 * 1024 * 1024), false)).toBe(`a.jpg is too large. ${MESSAGES.tooBig}`);
    expect(MESSAGES.tooBig).toBe("Each image must be less than 10MB");
    expect(fitWithin(4000, 3000, 1920, 1080)).toEqual({ width: 1440, height: 1080 });
    expect(fitWithin(800, 600, 1920, 1080)).toEqual({ width: 800, height: 600 });
  });

  it("retries an upload 3 times on network errors, waiting 2 s then 4 s", async () => {
    const waits: number[] = [];
    let attempts = 0;
    class FakeXhr {
      upload = { onprogress: null };
      status = 0;
      responseText = "";
      onload: (() => void) | null = null;
      onerror: (() => void) | null = null;
      open() {}
      setRequestHeader() {}
      send() {
        attempts++;
        queueMicrotask(() => {
          if (attempts < 3) this.onerror?.();
          else {
            this.status = 200;
            this.responseText = JSON.stringify({ uploaded_files: [{ url: "/u.jpg" }], failed_files: [] });
            this.onload?.();
          }
        });
      }
    }
    vi.stubGlobal("XMLHttpRequest", FakeXhr);
    const photo = { name: "a.jpg", full: new Blob(["x"], { type: "image/jpeg" }), thumb: new Blob(["y"], { type: "image/jpeg" }) };
    const result = await uploadPhotos([photo], () => {}, async (ms) => void waits.push(ms));
    expect(attempts).toBe(3);
    expect(waits).toEqual([2000, 4000]);
    expect(result.uploaded_files[0]!.url).toBe("/u.jpg");
    vi.unstubAllGlobals();
  });
});

describe("the fields: limits, errors, photos", () => {
  const verified = makeUser({ id_verification_status: "verified" });

  it("a new listing starts at the student's own university, in the same searchable picker as browse", async () => {
    const two = { data: [...universities.data, { id: 2, name: "University of Texas at Austin", abbreviation: "UT Austin" }] };
    fakeApi({ "GET /api/v1/universities/": two, "GET /api/v1/geo/autocomplete": { data: [] } });
    const ui = userEvent.setup();
    renderApp("/create", { token: "t", user: verified });
    const university = await screen.findByRole("combobox", { name: "University" });
    await waitFor(() => expect(university).toHaveValue("UF · University of Florida"));
    expect(screen.queryByRole("option", { name: /Choose a university/ })).toBeNull();
    await ui.clear(university);
    await ui.type(university, "texas");
    await ui.click(await screen.findByRole("option", { name: "UT Austin · University of Texas at Austin" }));
    expect(university).toHaveValue("UT Austin · University of Texas at Austin");
  });

  it("a student without a university starts with none chosen, and the form says to choose one", async () => {
    fakeApi({ "GET /api/v1/universities/": universities, "GET /api/v1/geo/autocomplete": { data: [] } });
    const ui = userEvent.setup();
    renderApp("/create", { token: "t", user: makeUser({ id_verification_status: "verified", university_id: null, university: null }) });
    const university = await screen.findByRole("combobox", { name: "University" });
    expect(university).toHaveValue("");
    await ui.click(screen.getByRole("button", { name: "Submit listing" }));
    await waitFor(() => expect(university).toHaveAttribute("aria-invalid", "true"));
    expect(university).toHaveAccessibleDescription(/University is required|Please choose|university/i);
  });

  it("keeps a too-long title in the box, flags it until shortened, counts it, and clears a field's error as soon as the value is valid", async () => {
    fakeApi({ "GET /api/v1/universities/": notFound, "GET /api/v1/utAustin/": utAustin });
    const ui = userEvent.setup();
    renderApp("/create", { token: "t", user: verified });
    const title = await screen.findByLabelText("Title");
    // Never cut silently: no hard limit on the box.
    expect(title).not.toHaveAttribute("maxLength");
    await ui.click(screen.getByRole("button", { name: "Submit listing" }));
    expect(await screen.findByText("Title is required")).toBeInTheDocument();
    expect(screen.getByText("Description is required")).toBeInTheDocument();
    // The refused submit puts focus on the first field to fix (its error was above the screen).
    await waitFor(() => expect(title).toHaveFocus());
    // The university comes before the address: its suggestions are near that campus.
    const university = screen.getByLabelText("University");
    const address = screen.getByLabelText("Address");
    expect(university.compareDocumentPosition(address) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    // Below 80 % of the limit there is no counter.
    await ui.type(title, "x".repeat(27));
    expect(screen.queryByText(/\/35/)).toBeNull();
    expect(screen.queryByText("Title is required")).toBeNull();
    await ui.type(title, "x");
    expect(screen.getByText("28/35", { exact: false })).toHaveAttribute("aria-live", "polite");
    // A pasted 68-character title stays whole and is flagged.
    await ui.clear(title);
    await ui.click(title);
    await ui.paste("A sunny two-bedroom apartment a short walk from the engineering hall");
    expect(title).toHaveValue("A sunny two-bedroom apartment a short walk from the engineering hall");
    const alert = screen.getByText("Title is 68 characters; the limit is 35. Shorten it to continue.");
    expect(alert).toHaveAttribute("role", "alert");
    expect(title).toHaveAttribute("aria-invalid", "true");
    expect(screen.getByText("68/35", { exact: false })).toBeInTheDocument();
    // The submit refuses meanwhile (the form's other errors stay too).
    await ui.click(screen.getByRole("button", { name: "Submit listing" }));
    expect(screen.getByText("Title is 68 characters; the limit is 35. Shorten it to continue.")).toBeInTheDocument();
    expect(screen.getByText("Description is required")).toBeInTheDocument();
    await ui.clear(title);
    await ui.type(title, "Sunny two-bedroom by engineering");
    expect(screen.queryByText(/the limit is 35/)).toBeNull();
    expect(title).not.toHaveAttribute("aria-invalid");
    expect(screen.getByText("32/35", { exact: false })).toBeInTheDocument();
  });

  it("counts and flags the description and the address the same way", async () => {
    fakeApi({ "GET /api/v1/universities/": notFound, "GET /api/v1/utAustin/": utAustin });
    const ui = userEvent.setup();
    renderApp("/create", { token: "t", user: verified });
    const description = await screen.findByLabelText("Description");
    expect(description).not.toHaveAttribute("maxLength");
    await ui.click(description);
    await ui.paste("y".repeat(1005));
    expect(description).toHaveValue("y".repeat(1005));
    expect(screen.getByText("Description is 1005 characters; the limit is 1000. Shorten it to continue.")).toHaveAttribute("role", "alert");
    const address = screen.getByLabelText("Address");
    expect(address).not.toHaveAttribute("maxLength");
    await ui.click(address);
    await ui.paste("z".repeat(301));
    expect(address).toHaveValue("z".repeat(301));
    expect(screen.getByText("Address is 301 characters; the limit is 300. Shorten it to continue.")).toHaveAttribute("role", "alert");
    expect(address).toHaveAttribute("aria-invalid", "true");
  });

  it("refuses a non-image, a HEIC photo and an undecodable file when picked, naming each; adds a readable photo", async () => {
    fakeApi({ "GET /api/v1/universities/": notFound, "GET /api/v1/utAustin/": utAustin });
    vi.stubGlobal("createImageBitmap", async (file: File) => {
      if (file.name === "broken.jpg") throw new Error("decode failed");
      return { close() {} };
    });
    URL.createObjectURL = () => "blob:preview";
    URL.revokeObjectURL = () => {};
    const ui = userEvent.setup({ applyAccept: false });
    renderApp("/create", { token: "t", user: verified });
    const input = (await screen.findByLabelText("Add photos")) as HTMLInputElement;

    await ui.upload(input, new File(["hello"], "notes.txt", { type: "text/plain" }));
    expect(await screen.findByText(/^notes\.txt is not an image\./)).toHaveAttribute("role", "alert");
    await ui.upload(input, new File(["ftyp"], "IMG_1234.HEIC", { type: "" }));
    expect(await screen.findByText(/^IMG_1234\.HEIC is a HEIC photo, which browsers can't read\. On iPhone, choose Most Compatible/)).toBeInTheDocument();
    await ui.upload(input, new File(["not really"], "broken.jpg", { type: "image/jpeg" }));
    expect(await screen.findByText(/^broken\.jpg could not be opened as an image/)).toBeInTheDocument();
    expect(screen.queryByRole("img", { name: /Photo 1/ })).toBeNull();

    await ui.upload(input, new File(["jpeg"], "room.jpg", { type: "image/jpeg" }));
    expect(await screen.findByRole("img", { name: "Photo 1 (primary)" })).toBeInTheDocument();
    expect(screen.queryByText(/could not be opened/)).toBeNull();
  });

  it("five photos chosen with one text file among them: the four photos are added and the text file is named", async () => {
    fakeApi({ "GET /api/v1/universities/": notFound, "GET /api/v1/utAustin/": utAustin });
    vi.stubGlobal("createImageBitmap", async () => ({ close() {} }));
    URL.createObjectURL = () => "blob:preview";
    URL.revokeObjectURL = () => {};
    const ui = userEvent.setup({ applyAccept: false });
    renderApp("/create", { token: "t", user: verified });
    const input = (await screen.findByLabelText("Add photos")) as HTMLInputElement;
    const jpeg = (name: string) => new File(["jpeg"], name, { type: "image/jpeg" });
    await ui.upload(input, [jpeg("kitchen.jpg"), jpeg("room.jpg"), new File(["hello"], "lease.txt", { type: "text/plain" }), jpeg("bath.jpg"), jpeg("view.jpg")]);
    expect(await screen.findByText(`Added 4 of 5 photos. lease.txt is not an image. ${MESSAGES.invalidDesktop}`)).toHaveAttribute("role", "alert");
    for (let i = 1; i <= 4; i++) expect(screen.getByRole("img", { name: new RegExp(`^Photo ${i}\\b`) })).toBeInTheDocument();
    expect(screen.queryByRole("img", { name: /^Photo 5\b/ })).toBeNull();
  });

  it("adds what fits under the limit and names the rest", async () => {
    vi.stubGlobal("createImageBitmap", async () => ({ close() {} }));
    const jpeg = (name: string) => new File(["jpeg"], name, { type: "image/jpeg" });
    const picked = await pickPhotos([jpeg("a.jpg"), jpeg("b.jpg"), jpeg("c.jpg")], 8, { mobile: false });
    expect(picked.added.map((f) => f.name)).toEqual(["a.jpg", "b.jpg"]);
    expect(picked.problem).toBe(`Added 2 of 3 photos. ${MESSAGES.max}: c.jpg was not added.`);
    const none = await pickPhotos([jpeg("a.jpg"), jpeg("b.jpg")], 10, { mobile: false });
    expect(none).toEqual({ added: [], problem: `${MESSAGES.max}: a.jpg and b.jpg were not added.` });
    expect(await pickPhotos([jpeg("a.jpg")], 0, { mobile: false, max: 6 })).toMatchObject({ problem: null });
  });

  it("says before publishing that the public sees only the street and area, and shows that form of the address typed", async () => {
    fakeApi({ "GET /api/v1/universities/": utAustin, "GET /api/v1/geo/autocomplete": { data: [] } });
    const ui = userEvent.setup();
    renderApp("/create", { token: "t", user: verified });
    const address = await screen.findByLabelText("Address");
    const note = document.getElementById(address.getAttribute("aria-describedby")!.split(" ").pop()!)!;
    expect(note).toHaveTextContent(
      "Only you and our team see the full address. Everyone else sees the street and area, without the house number or unit, until you accept a request.",
    );
    expect(note).not.toHaveTextContent("Shown publicly as");
    await ui.type(address, "177 Bleecker St, Apt 4B, New York, NY 10003");
    expect(note).toHaveTextContent("Shown publicly as: Bleecker St, New York, NY 10003");
    expect(note).not.toHaveTextContent("177");
  });

  it("states the photo limits the upload enforces: 10 photos, 10MB each (it once said 5MB)", async () => {
    fakeApi({ "GET /api/v1/universities/": utAustin });
    renderApp("/create", { token: "t", user: verified });
    expect(await screen.findByText("Up to 10 photos, maximum 10MB each. The first photo is the primary one.")).toHaveClass("field-hint");
  });
});

describe("listing form: dates", () => {
  const verified = makeUser({ id: "owner-1", id_verification_status: "verified" });
  const from = () => screen.getByLabelText("Available from");
  const to = () => screen.getByLabelText("Available to");

  it("choosing Summer fills its next typical dates; another term replaces them while untouched", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date(2026, 2, 1, 12));
    fakeApi({ "GET /api/v1/universities/": universities });
    const ui = userEvent.setup();
    renderApp("/create", { token: "t", user: verified });
    const term = await screen.findByLabelText("Lease term");
    expect(from()).toHaveValue("");
    await ui.selectOptions(term, "summer");
    expect(from()).toHaveValue("2026-05-15");
    expect(to()).toHaveValue("2026-08-15");
    await ui.selectOptions(term, "fall");
    expect(from()).toHaveValue("2026-08-20");
    expect(to()).toHaveValue("2026-12-20");
  });

  it("never overwrites a date the owner typed", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(new Date(2026, 2, 1, 12));
    fakeApi({ "GET /api/v1/universities/": universities });
    const ui = userEvent.setup();
    renderApp("/create", { token: "t", user: verified });
    const term = await screen.findByLabelText("Lease term");
    await ui.selectOptions(term, "summer");
    fireEvent.change(from(), { target: { value: "2026-05-20" } });
    fireEvent.change(to(), { target: { value: "2026-08-10" } });
    await ui.selectOptions(term, "fall");
    expect(from()).toHaveValue("2026-05-20");
    expect(to()).toHaveValue("2026-08-10");
  });

  it("shows an out-of-order stay as a field error and sends the dates when valid", async () => {
    const listing = makeOwnerListing({
      user_id: "owner-1",
      available_from: "2026-05-20",
      available_to: "2026-08-10",
      pictures: ["/api/v1/images/listings/owner-1_a.jpg"],
      thumbnails: ["/api/v1/images/listings/owner-1_a.thumb.jpg"],
    });
    const calls = fakeApi({ "GET /api/v1/geo/autocomplete": notFound,
      [`GET ${API}/universities/`]: universities,
      [`GET ${API}/subleases/l1`]: { data: listing },
      [`GET ${API}/users/profile`]: { data: verified },
      [`PATCH ${API}/subleases/l1`]: ({ body }: { body: Record<string, unknown> }) => ({ data: { ...listing, ...body } }),
    });
    const ui = userEvent.setup();
    renderApp("/edit/l1", { token: "t", user: verified });
    await waitFor(() => expect(from()).toHaveValue("2026-05-20"));
    // The owner's saved dates stay when the term changes.
    await ui.selectOptions(screen.getByLabelText("Lease term"), "summer");
    expect(from()).toHaveValue("2026-05-20");
    fireEvent.change(to(), { target: { value: "2026-05-01" } });
    await ui.click(screen.getByRole("button", { name: "Save changes" }));
    expect(await screen.findByText('"Available to" must be after "Available from"')).toBeInTheDocument();
    expect(to()).toHaveAttribute("aria-invalid", "true");
    expect(calls.some((c) => c.method === "PATCH")).toBe(false);
    fireEvent.change(to(), { target: { value: "2026-08-01" } });
    expect(screen.queryByText('"Available to" must be after "Available from"')).toBeNull();
    await ui.click(screen.getByRole("button", { name: "Save changes" }));
    await waitFor(() => expect(calls.some((c) => c.method === "PATCH")).toBe(true));
    expect(calls.find((c) => c.method === "PATCH")!.body).toMatchObject({ available_from: "2026-05-20", available_to: "2026-08-01" });
  });
});

describe("listing form: gender preference", () => {
  const verified = makeUser({ id: "owner-1", id_verification_status: "verified" });

  it("Studio and 1x1 replace the select by the explanation; a shared unit shows the select again, at No preference", async () => {
    fakeApi({ "GET /api/v1/universities/": universities });
    const ui = userEvent.setup();
    renderApp("/create", { token: "t", user: verified });
    const unit = await screen.findByLabelText("Unit type");
    await ui.selectOptions(preferenceSelect()!, "female_preferred");

    await ui.selectOptions(unit, "studio");
    expect(preferenceSelect()).toBeNull();
    expect(screen.getByText(GENDER_PREFERENCE_TEXTS.notOffered)).toBeInTheDocument();
    await ui.selectOptions(unit, "1x1");
    expect(preferenceSelect()).toBeNull();
    expect(screen.getByText(GENDER_PREFERENCE_TEXTS.notOffered)).toBeInTheDocument();

    await ui.selectOptions(unit, "2x2");
    expect(preferenceSelect()).toHaveValue("no_preference");
    expect(screen.queryByText(GENDER_PREFERENCE_TEXTS.notOffered)).toBeNull();
    await ui.selectOptions(unit, "other");
    expect(preferenceSelect()).toBeInTheDocument();
  });

  it("a listing changed to a studio is sent with no_preference", async () => {
    const listing = makeOwnerListing({
      user_id: "owner-1",
      unit_type: "2x2",
      gender_preference: "female_preferred",
      pictures: ["/api/v1/images/listings/owner-1_a.jpg"],
      thumbnails: ["/api/v1/images/listings/owner-1_a.thumb.jpg"],
    });
    const calls = fakeApi({
      [`GET ${API}/universities/`]: universities,
      [`GET ${API}/subleases/l1`]: { data: listing },
      [`GET ${API}/users/profile`]: { data: verified },
      [`GET ${API}/geo/autocomplete`]: notFound,
      [`PATCH ${API}/subleases/l1`]: ({ body }: { body: Record<string, unknown> }) => ({ data: { ...listing, ...body } }),
    });
    const ui = userEvent.setup();
    renderApp("/edit/l1", { token: "t", user: verified });
    expect(await screen.findByRole("combobox", { name: "Roommate gender preference" })).toHaveValue("female_preferred");
    await ui.selectOptions(screen.getByLabelText("Unit type"), "studio");
    expect(preferenceSelect()).toBeNull();
    await ui.click(screen.getByRole("button", { name: "Save changes" }));
    await waitFor(() => expect(calls.some((c) => c.method === "PATCH")).toBe(true));
    expect(calls.find((c) => c.method === "PATCH")!.body).toMatchObject({ unit_type: "studio", gender_preference: "no_preference" });
  });
});

// The edit form says when saving sends a live listing back to review (the contract's rule).
describe("edit form: the review warning", () => {
  const API = "/api/v1";
  const owner = makeUser({ id: "owner-1", id_verification_status: "verified" });
  function editPage(status: OwnerListing["verification_status"] = "approved") {
    const listing = makeOwnerListing({
      user_id: "owner-1",
      verification_status: status,
      monthly_rent: 1000,
      unit_type: "2x2",
      address: "100 Main St, Gainesville, FL",
      pictures: ["/api/v1/images/listings/owner-1_a.jpg", "/api/v1/images/listings/owner-1_b.jpg"],
      thumbnails: ["/api/v1/images/listings/owner-1_a.thumb.jpg", "/api/v1/images/listings/owner-1_b.thumb.jpg"],
    });
    fakeApi({
      [`GET ${API}/universities/`]: { data: [{ id: 1, name: "University of Florida", abbreviation: "UF" }, { id: 2, name: "Florida State University", abbreviation: "FSU" }] },
      [`GET ${API}/subleases/l1`]: { data: listing },
      [`GET ${API}/users/profile`]: { data: owner },
      [`GET ${API}/geo/autocomplete`]: notFound,
    });
    renderApp("/edit/l1", { token: "t", user: owner });
  }
  const warning = () => screen.queryByText(/Saving sends your listing back for a short review/);

  it("a small rent cut or parking says nothing; a new description, unit type or a cut of more than a quarter names the change", async () => {
    editPage();
    const ui = userEvent.setup();
    const rent = await screen.findByLabelText("Monthly rent ($)");
    await waitFor(() => expect(rent).toHaveValue(1000));
    await ui.clear(rent);
    await ui.type(rent, "750");
    expect(warning()).toBeNull();
    await ui.clear(rent);
    await ui.type(rent, "749");
    expect(warning()).toHaveTextContent(/again: rent cut by more than a quarter\.$/);
    await ui.clear(rent);
    await ui.type(rent, "1000");
    await ui.selectOptions(screen.getByLabelText("Unit type"), "studio");
    expect(warning()).toHaveTextContent(/again: a new unit type\.$/);
    await ui.selectOptions(screen.getByLabelText("Unit type"), "2x2");
    await ui.type(screen.getByLabelText("Description"), " Fixed.");
    expect(warning()).toHaveTextContent(/again: a new description\.$/);
  });

  it("a listing still under review shows no warning", async () => {
    editPage("pending");
    const ui = userEvent.setup();
    await waitFor(() => expect(screen.getByLabelText("Monthly rent ($)")).toHaveValue(1000));
    await ui.selectOptions(screen.getByLabelText("Unit type"), "studio");
    expect(warning()).toBeNull();
  });
});
