import { useEffect, useMemo, useRef, useState, type FormEvent } from "react";
import { GENDER_PREFERENCES, LEASE_TERMS, UNIT_TYPES, type LeaseTerm } from "@contract/constants";
import { nextTermDates } from "@contract/forms";
import { LIMITS, megabytes } from "@contract/limits";
import { GENDER_PREFERENCE_TEXTS, listingFormSchema, type ListingFormData } from "@contract/forms";
import type { OwnerListing } from "@contract/listings";
import { allowsGenderPreference } from "@contract/policies";
import { materialChanges, type MaterialChange } from "@contract/owner-rules";
import { FormError, SelectField, TextAreaField, TextField } from "../../../components/ui/field";
import { ProgressBar } from "../../../components/ui/progress";
import { GENDER_LABELS, termLabel, unitLabel } from "../../../lib/listings-api";
import { UniversityCombobox } from "../../../components/university-combobox";
import { ListingSubmitError, useSubmitListing, type FormPhoto } from "../api/submit-listing";
import { MESSAGES, pickPhotos } from "../../../lib/upload";
import { useFocusFirstInvalid } from "../../../lib/focus-first-invalid";
import { useSession } from "../../../lib/session";
import { AddressInput } from "./address-input";

/** The form's inputs as typed (selects start empty; rent is text until parsed). */
interface Fields {
  title: string;
  description: string;
  unit_type: string;
  monthly_rent: string;
  address: string;
  /**
   * The picked suggestion's coordinates and token (docs/decisions/019); null when typed by hand or unknown.
   * Undefined (not sent) while an edit leaves the address alone: the server keeps the stored ones.
   */
  latitude?: number | null;
  longitude?: number | null;
  location_token?: string | null;
  lease_term: string;
  /** `YYYY-MM-DD` as the date inputs give them; empty when not set. */
  available_from: string;
  available_to: string;
  university_id: string;
  parking: boolean;
  allow_pets: boolean;
  gender_preference: string;
}
type FieldErrors = Partial<Record<keyof Fields | "photos", string>>;

const empty: Fields = {
  title: "",
  description: "",
  unit_type: "",
  monthly_rent: "",
  address: "",
  latitude: null,
  longitude: null,
  location_token: null,
  lease_term: "",
  available_from: "",
  available_to: "",
  university_id: "",
  parking: false,
  allow_pets: false,
  gender_preference: "no_preference",
};

/** The fields checked with the contract's form schema, the photos by count; the data to send when valid. */
function parseListing(f: Fields, photoCount: number): { errors: FieldErrors; data?: ListingFormData } {
  // A whole unit (studio, 1x1) sends no preference, whatever an earlier choice left (decision 018).
  const parsed = listingFormSchema.safeParse(allowsGenderPreference(f.unit_type) ? f : { ...f, gender_preference: "no_preference" });
  // One message per field; a later issue (the page's own 35/1000 limit) wins over the API's wider one.
  const errors: FieldErrors = parsed.success ? {} : Object.fromEntries(parsed.error.issues.map((i) => [String(i.path[0]), i.message]));
  if (photoCount === 0) errors.photos = MESSAGES.atLeastOne;
  if (photoCount > LIMITS.photosPerListing) errors.photos = MESSAGES.max;
  return parsed.success && !Object.keys(errors).length ? { errors, data: parsed.data } : { errors };
}

const isDate = (key: string) => key === "available_from" || key === "available_to";

/** What the owner is told a change does to a live listing (the server decides with the same rule, plus the price check). */
const REVIEW_REASONS: Partial<Record<MaterialChange, string>> = {
  title: "a new title",
  description: "a new description",
  university: "a new university",
  unit_type: "a new unit type",
  address: "a new address",
  photos: "changed photos",
  rent_drop: "rent cut by more than a quarter",
};

/**
 * The material changes the form holds for an approved listing (contract/owner-rules `materialChanges`,
 * docs/decisions/015): the comparables are the server's, so the price check's own line is left to it.
 */
function reviewReasons(listing: OwnerListing | undefined, fields: Fields, photos: FormPhoto[]): string[] {
  if (!listing || listing.verification_status !== "approved") return [];
  const rent = Number(fields.monthly_rent);
  const changes = materialChanges(
    {
      title: listing.title,
      description: listing.description,
      university_id: listing.university_id,
      unit_type: listing.unit_type,
      address: listing.address,
      monthly_rent: listing.monthly_rent,
      photos: listing.pictures,
    },
    {
      title: fields.title,
      description: fields.description,
      university_id: Number(fields.university_id) || listing.university_id,
      unit_type: fields.unit_type || listing.unit_type,
      address: fields.address,
      monthly_rent: Number.isFinite(rent) && rent > 0 ? rent : listing.monthly_rent,
      photos: photos.map((p) => (p.kind === "existing" ? p.url : p.preview)),
    },
    null,
  );
  return changes.flatMap((c) => REVIEW_REASONS[c] ?? []);
}

export const validateListing = (f: Fields, photoCount: number): FieldErrors => parseListing(f, photoCount).errors;

interface ListingFormProps {
  listing?: OwnerListing;
  onSaved: (listing: OwnerListing) => void;
  /** The modal variant reports progress through 10, 20, 30, 70, 80, 90, 100. */
  onProgress?: (percent: number) => void;
}

export function ListingForm({ listing, onSaved, onProgress }: ListingFormProps) {
  const editing = !!listing;
  const { session } = useSession();
  const [fields, setFields] = useState<Fields>(() =>
    listing
      ? {
          title: listing.title,
          description: listing.description,
          unit_type: listing.unit_type,
          monthly_rent: String(listing.monthly_rent),
          address: listing.address,
          // No coordinates sent unless the address is changed: the server keeps the stored ones
          // (sending them would need the token of the suggestion they came from).
          lease_term: listing.lease_term,
          available_from: listing.available_from ?? "",
          available_to: listing.available_to ?? "",
          university_id: String(listing.university_id),
          parking: listing.parking,
          allow_pets: listing.allow_pets,
          gender_preference: listing.gender_preference,
        }
      : // A new listing starts at the student's own university (most list near their campus); they can change it.
        { ...empty, university_id: session?.user.university_id ? String(session.user.university_id) : "" },
  );
  const [photos, setPhotos] = useState<FormPhoto[]>(() =>
    (listing?.pictures ?? []).map((url, i) => ({ kind: "existing" as const, url, thumb: listing!.thumbnails[i] ?? url })),
  );
  const [errors, setErrors] = useState<FieldErrors>({});
  // A refused submit focuses the first field to fix (the errors above the screen were missed).
  const { formRef, refuse } = useFocusFirstInvalid();
  const [stage, setStage] = useState<string | null>(null);
  const [checkingPhotos, setCheckingPhotos] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const submit = useSubmitListing(listing);
  // The dates the last term choice filled in: a later term choice replaces only these (or empty dates).
  const preset = useRef<{ from: string; to: string } | null>(null);

  const previews = useMemo(() => photos.filter((p): p is Extract<FormPhoto, { kind: "new" }> => p.kind === "new").map((p) => p.preview), [photos]);
  const previewsRef = useRef(previews);
  useEffect(() => {
    previewsRef.current = previews;
  }, [previews]);
  useEffect(() => () => previewsRef.current.forEach((url) => URL.revokeObjectURL(url)), []);

  function set<K extends keyof Fields>(key: K, value: Fields[K], also: Partial<Fields> = {}) {
    const next = { ...fields, ...also, [key]: value };
    setFields(next);
    // A shown error follows the value: it goes as soon as the value is valid (the dates go together).
    const shown = (Object.keys(errors) as (keyof FieldErrors)[]).filter(
      (k) => errors[k] && (k === key || k in also || (isDate(key) && isDate(k))),
    );
    if (shown.length) {
      const now = validateListing(next, photos.length);
      setErrors((e) => ({ ...e, ...Object.fromEntries(shown.map((k) => [k, now[k]])) }));
    }
  }

  /** A term choice fills that term's next typical dates, unless the owner typed dates of their own. */
  function chooseTerm(term: string) {
    const untouched =
      (!fields.available_from && !fields.available_to) ||
      (preset.current !== null && fields.available_from === preset.current.from && fields.available_to === preset.current.to);
    if (!untouched || !(LEASE_TERMS as readonly string[]).includes(term)) return set("lease_term", term);
    // Today's date read here, in the handler (never while rendering: the server renders this page too).
    const now = new Date();
    const today = `${now.getFullYear()}-${String(now.getMonth() + 1).padStart(2, "0")}-${String(now.getDate()).padStart(2, "0")}`;
    const dates = nextTermDates(term as LeaseTerm, today);
    preset.current = dates;
    set("lease_term", term, { available_from: dates.from, available_to: dates.to });
  }

  async function addFiles(list: FileList | null) {
    const files = [...(list ?? [])];
    if (fileInput.current) fileInput.current.value = "";
    if (!files.length) return;
    // The readable photos are added; each other file is refused now, named, rather than shown as a
    // broken preview and failing at submit.
    setCheckingPhotos(true);
    const { added, problem } = await pickPhotos(files, photos.length);
    setCheckingPhotos(false);
    setErrors((e) => ({ ...e, photos: problem ?? undefined }));
    setPhotos((p) => [...p, ...added.map((file) => ({ kind: "new" as const, file, preview: URL.createObjectURL(file) }))]);
  }

  function makePrimary(index: number) {
    setPhotos((p) => [p[index]!, ...p.filter((_, i) => i !== index)]);
  }

  function remove(index: number) {
    setPhotos((p) => {
      const gone = p[index];
      if (gone?.kind === "new") URL.revokeObjectURL(gone.preview);
      return p.filter((_, i) => i !== index);
    });
  }

  const report = (percent: number) => onProgress?.(percent);

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    submit.reset();
    const { errors: found, data } = parseListing(fields, photos.length);
    setErrors(found);
    if (!data) return refuse();
    submit.mutate(
      { data, photos, onStage: setStage, onUploadProgress: setProgress, onProgress: report },
      {
        onSuccess: (saved) => {
          // Uploaded photos are now the listing's: show them as existing from here on.
          setPhotos(saved.pictures.map((url, i) => ({ kind: "existing", url, thumb: saved.thumbnails[i] ?? url })));
          report(100);
          onSaved(saved);
        },
        onError: (err) => {
          if (err instanceof ListingSubmitError && Object.keys(err.fieldErrors).length) {
            setErrors(err.fieldErrors);
            refuse();
          }
        },
        onSettled: () => setStage(null),
      },
    );
  }

  const busy = submit.isPending;
  const formError = submit.error?.message ?? null;
  const reasons = reviewReasons(listing, fields, photos);
  return (
    <form ref={formRef} onSubmit={onSubmit} noValidate className="stack listing-form">
      <TextField label="Title" value={fields.title} error={errors.title} limit={LIMITS.titleMax} onChange={(e) => set("title", e.target.value)} />
      <TextAreaField
        label="Description"
        rows={6}
        value={fields.description}
        error={errors.description}
        limit={LIMITS.descriptionMax}
        onChange={(e) => set("description", e.target.value)}
      />
      <div className="grid-2">
        <SelectField label="Unit type" value={fields.unit_type} error={errors.unit_type} onChange={(e) => set("unit_type", e.target.value, allowsGenderPreference(e.target.value) ? {} : { gender_preference: "no_preference" })}>
          <option value="">Choose a unit type</option>
          {UNIT_TYPES.map((u) => (
            <option key={u} value={u}>
              {unitLabel(u)}
            </option>
          ))}
        </SelectField>
        <TextField label="Monthly rent ($)" type="number" inputMode="numeric" min={1} step={1} value={fields.monthly_rent} error={errors.monthly_rent} onChange={(e) => set("monthly_rent", e.target.value)} />
      </div>
      {/* The university first: the address suggestions are near its campus (docs/decisions/024). */}
      <div className="grid-2">
        <UniversityCombobox required value={fields.university_id || null} error={errors.university_id} placeholder="Type the university's name" onChange={(v) => set("university_id", v ?? "")} />
        <SelectField label="Lease term" value={fields.lease_term} error={errors.lease_term} onChange={(e) => chooseTerm(e.target.value)}>
          <option value="">Choose a term</option>
          {LEASE_TERMS.map((t) => (
            <option key={t} value={t}>
              {termLabel(t)}
            </option>
          ))}
        </SelectField>
      </div>
      <AddressInput
        value={fields.address}
        onChange={(address, point) =>
          set("address", address, { latitude: point?.latitude ?? null, longitude: point?.longitude ?? null, location_token: point?.location_token ?? null })
        }
        error={errors.address}
        limit={LIMITS.addressMax}
        // An edit that leaves the address keeps the stored coordinates (undefined here).
        placed={fields.latitude === undefined ? typeof listing?.latitude === "number" : typeof fields.latitude === "number"}
        universityId={fields.university_id}
      />
      <div className="grid-2">
        <TextField
          label="Available from"
          type="date"
          value={fields.available_from}
          error={errors.available_from}
          onChange={(e) => set("available_from", e.target.value)}
          hint="Choosing a term fills in its usual dates; change them to your exact days."
        />
        <TextField
          label="Available to"
          type="date"
          value={fields.available_to}
          min={fields.available_from || undefined}
          error={errors.available_to}
          onChange={(e) => set("available_to", e.target.value)}
        />
      </div>
      <div className="grid-2">
        {/* Offered for shared units only; before a unit type is chosen the select shows as it always has. */}
        {!fields.unit_type || allowsGenderPreference(fields.unit_type) ? (
          <SelectField label="Roommate gender preference" value={fields.gender_preference} onChange={(e) => set("gender_preference", e.target.value)}>
            {GENDER_PREFERENCES.map((g) => (
              <option key={g} value={g}>
                {GENDER_LABELS[g]}
              </option>
            ))}
          </SelectField>
        ) : (
          <div className="field">
            <p className="field-label">Roommate gender preference</p>
            <p className="field-hint">{GENDER_PREFERENCE_TEXTS.notOffered}</p>
          </div>
        )}
        <div className="filter-checks">
          <label className="switch">
            <input type="checkbox" checked={fields.parking} onChange={(e) => set("parking", e.target.checked)} />
            Parking available
          </label>
          <label className="switch">
            <input type="checkbox" checked={fields.allow_pets} onChange={(e) => set("allow_pets", e.target.checked)} />
            Pets allowed
          </label>
        </div>
      </div>
      <fieldset className="photos-field">
        <legend className="field-label">Photos</legend>
        <p className="field-hint">
          Up to {LIMITS.photosPerListing} photos, maximum {megabytes(LIMITS.imageMaxBytes)} each. The first photo is the primary one.
        </p>
        {photos.length > 0 && (
          <ul className="photo-grid">
            {photos.map((p, i) => (
              <li key={p.kind === "new" ? p.preview : p.url} className={i === 0 ? "primary" : ""}>
                <img src={p.kind === "new" ? p.preview : p.thumb} alt={`Photo ${i + 1}${i === 0 ? " (primary)" : ""}`} />
                <div className="photo-actions">
                  {i === 0 ? (
                    <span className="badge">Primary</span>
                  ) : (
                    <button type="button" className="button button-ghost photo-action" onClick={() => makePrimary(i)}>
                      Set as primary <span className="visually-hidden">(photo {i + 1})</span>
                    </button>
                  )}
                  <button type="button" className="button button-ghost photo-action" aria-label={`Remove photo ${i + 1}`} onClick={() => remove(i)}>
                    Remove
                  </button>
                </div>
              </li>
            ))}
          </ul>
        )}
        <label className={`button button-ghost file-button${busy || checkingPhotos ? " is-disabled" : ""}`}>
          Add photos
          <input ref={fileInput} type="file" multiple accept="image/*,.heic,.heif" className="visually-hidden" onChange={(e) => void addFiles(e.target.files)} disabled={busy || checkingPhotos} />
        </label>
        {checkingPhotos && (
          <p className="muted" role="status">
            Checking photos…
          </p>
        )}
        {errors.photos && (
          <p className="field-error" role="alert">
            {errors.photos}
          </p>
        )}
      </fieldset>
      {busy && stage && (
        <p className="form-notice" role="status">
          {stage}
        </p>
      )}
      {progress !== null && <ProgressBar value={progress} label="Uploading photos" />}
      {reasons.length > 0 && (
        <p className="panel notice" role="status">
          Saving sends your listing back for a short review before it is live again: {reasons.join(", ")}.
        </p>
      )}
      <FormError message={formError} />
      <button type="submit" className="button button-primary button-lg" disabled={busy}>
        {busy && stage ? stage : editing ? "Save changes" : "Submit listing"}
      </button>
    </form>
  );
}
