import { useEffect, useMemo, useRef, useState, type FormEvent } from "react";
import { GENDER_PREFERENCES, LEASE_TERMS, LIMITS, UNIT_TYPES, type GenderPreference, type LeaseTerm, type UnitType } from "@contract/constants";
import type { Listing } from "@contract/listings";
import { FormError, SelectField, TextAreaField, TextField } from "../../../components/ui/field";
import { ProgressBar } from "../../../components/ui/progress";
import { ApiError } from "../../../lib/api-client";
import { GENDER_LABELS, termLabel, unitLabel } from "../../../lib/listings-api";
import { fetchProfile } from "../../../lib/session";
import { UniversitySelect } from "../../../components/university-select";
import { createListing, updateListing, uploadPhotos } from "../api/listing-form-api";
import { checkFiles, MESSAGES, preparePhoto } from "../lib/images";
import { AddressInput } from "./address-input";

type Photo = { kind: "existing"; url: string; thumb: string } | { kind: "new"; file: File; preview: string };

interface Fields {
  title: string;
  description: string;
  unit_type: string;
  monthly_rent: string;
  address: string;
  lease_term: string;
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
  lease_term: "",
  university_id: "",
  parking: false,
  allow_pets: false,
  gender_preference: "no_preference",
};

export function validateListing(f: Fields, photoCount: number): FieldErrors {
  const e: FieldErrors = {};
  if (!f.title.trim()) e.title = "Title is required";
  else if (f.title.trim().length > LIMITS.titleMax) e.title = `Title must be at most ${LIMITS.titleMax} characters`;
  if (!f.description.trim()) e.description = "Description is required";
  else if (f.description.length > LIMITS.descriptionMax) e.description = `Description must be at most ${LIMITS.descriptionMax} characters`;
  if (!f.unit_type) e.unit_type = "Please choose a unit type";
  const rent = Number(f.monthly_rent);
  if (!f.monthly_rent.trim()) e.monthly_rent = "Monthly rent is required";
  else if (!Number.isFinite(rent) || rent < LIMITS.minRent) e.monthly_rent = "Monthly rent must be at least 1";
  if (!f.address.trim()) e.address = "Address is required";
  else if (f.address.length > LIMITS.addressMax) e.address = `Address must be at most ${LIMITS.addressMax} characters`;
  if (!f.lease_term) e.lease_term = "Please choose a lease term";
  if (!f.university_id) e.university_id = "Please choose a university";
  if (photoCount === 0) e.photos = MESSAGES.atLeastOne;
  if (photoCount > LIMITS.photosPerListing) e.photos = MESSAGES.max;
  return e;
}

/** The spec's wording for a failed upload (section 8), by cause. */
function uploadErrorMessage(err: unknown): string {
  if (err instanceof ApiError) {
    if (err.status === 401) return "Your session has expired. Please log in again.";
    if (err.status === 413) return "Images are too large. Please choose smaller photos.";
    if (err.status === 403) return "Access denied. Please check your permissions.";
    if (err.status >= 500) return "Server error. Please try again later.";
    if (err.isNetworkError) return `Image upload failed: ${err.message}`;
    return `Image upload failed: ${err.message}`;
  }
  return `Image upload failed: ${err instanceof Error ? err.message : "unknown error"}`;
}

/** The spec's wording for a failed create (section 8): the server's detail first. */
function saveErrorMessage(err: unknown, editing: boolean): string {
  if (!(err instanceof ApiError)) return editing ? "Failed to update listing. Please try again." : "Failed to create listing";
  if (err.body?.detail) return err.body.detail;
  if (err.isNetworkError) return "Unable to connect to server. Please check your internet connection.";
  if (err.status === 401) return "Authentication failed. Please log in again.";
  if (err.status === 403) return "You do not have permission to create listings";
  if (err.status === 422) return "Invalid data provided. Please check your form inputs.";
  if (err.status >= 500) return "Server error. Please try again later.";
  return editing ? "Failed to update listing. Please try again." : "Failed to create listing";
}

interface ListingFormProps {
  listing?: Listing;
  onSaved: (listing: Listing) => void;
  /** The modal variant reports progress through 10, 20, 30, 70, 80, 90, 100. */
  onProgress?: (percent: number) => void;
}

export function ListingForm({ listing, onSaved, onProgress }: ListingFormProps) {
  const editing = !!listing;
  const [fields, setFields] = useState<Fields>(() =>
    listing
      ? {
          title: listing.title,
          description: listing.description,
          unit_type: listing.unit_type,
          monthly_rent: String(listing.monthly_rent),
          address: listing.address,
          lease_term: listing.lease_term,
          university_id: String(listing.university_id),
          parking: listing.parking,
          allow_pets: listing.allow_pets,
          gender_preference: listing.gender_preference,
        }
      : empty,
  );
  const [photos, setPhotos] = useState<Photo[]>(() =>
    (listing?.pictures ?? []).map((url, i) => ({ kind: "existing" as const, url, thumb: listing!.thumbnails[i] ?? url })),
  );
  const [errors, setErrors] = useState<FieldErrors>({});
  const [formError, setFormError] = useState<string | null>(null);
  const [stage, setStage] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);

  const previews = useMemo(() => photos.filter((p): p is Extract<Photo, { kind: "new" }> => p.kind === "new").map((p) => p.preview), [photos]);
  const previewsRef = useRef(previews);
  useEffect(() => {
    previewsRef.current = previews;
  }, [previews]);
  useEffect(() => () => previewsRef.current.forEach((url) => URL.revokeObjectURL(url)), []);

  const set = <K extends keyof Fields>(key: K, value: Fields[K]) => setFields((f) => ({ ...f, [key]: value }));

  function addFiles(list: FileList | null) {
    const files = [...(list ?? [])];
    if (fileInput.current) fileInput.current.value = "";
    if (!files.length) return;
    const problem = checkFiles(files, photos.length);
    setErrors((e) => ({ ...e, photos: problem ?? undefined }));
    if (problem) return;
    setPhotos((p) => [...p, ...files.map((file) => ({ kind: "new" as const, file, preview: URL.createObjectURL(file) }))]);
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

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setFormError(null);
    const found = validateListing(fields, photos.length);
    setErrors(found);
    if (Object.keys(found).length) return;
    report(10);
    try {
      await fetchProfile();
    } catch {
      setFormError("Unable to verify authentication. Please log in again.");
      report(0);
      return;
    }
    report(20);
    const fresh = photos.filter((p): p is Extract<Photo, { kind: "new" }> => p.kind === "new");
    const uploaded = new Map<File, string>();
    if (fresh.length) {
      setStage("Compressing images...");
      report(30);
      let prepared;
      try {
        prepared = await Promise.all(fresh.map((p) => preparePhoto(p.file)));
      } catch {
        setStage(null);
        setFormError(MESSAGES.processing);
        return;
      }
      setStage("Uploading photos...");
      setProgress(0);
      try {
        const result = await uploadPhotos(prepared, setProgress);
        if (result.failed_files.length) {
          setFormError(
            result.uploaded_files.length
              ? `Some images failed to upload: ${result.failed_files.map((f) => `${f.filename}: ${f.error}`).join(", ")}`
              : "No images were uploaded successfully",
          );
          return;
        }
        result.uploaded_files.forEach((u, i) => uploaded.set(fresh[i]!.file, u.url));
      } catch (err) {
        setFormError(uploadErrorMessage(err));
        return;
      } finally {
        setStage(null);
        setProgress(null);
      }
    }
    report(70);
    const pictures = photos.map((p) => (p.kind === "existing" ? p.url : uploaded.get(p.file)!));
    const body = {
      title: fields.title.trim(),
      description: fields.description.trim(),
      // validateListing has checked these are chosen from the lists.
      unit_type: fields.unit_type as UnitType,
      monthly_rent: Math.round(Number(fields.monthly_rent)),
      address: fields.address.trim(),
      lease_term: fields.lease_term as LeaseTerm,
      university_id: Number(fields.university_id),
      parking: fields.parking ? ("true" as const) : ("false" as const),
      allow_pets: fields.allow_pets ? ("true" as const) : ("false" as const),
      gender_preference: fields.gender_preference as GenderPreference,
      pictures,
    };
    setStage(editing ? "Saving changes..." : "Creating listing...");
    report(80);
    try {
      const saved = editing ? await updateListing(listing.id, body) : (await createListing(body)).data;
      report(90);
      // Uploaded photos are now the listing's: show them as existing from here on.
      setPhotos(saved.pictures.map((url, i) => ({ kind: "existing", url, thumb: saved.thumbnails[i] ?? url })));
      report(100);
      onSaved(saved);
    } catch (err) {
      if (err instanceof ApiError && err.body?.errors) setErrors(Object.fromEntries(err.body.errors.map((e) => [e.path, e.message])));
      setFormError(saveErrorMessage(err, editing));
    } finally {
      setStage(null);
    }
  }

  const titleLength = fields.title.length;
  const descriptionLength = fields.description.length;
  const busy = stage !== null;
  return (
    <form onSubmit={onSubmit} noValidate className="stack listing-form">
      <TextField
        label="Title"
        value={fields.title}
        error={errors.title}
        maxLength={LIMITS.titleMax + 20}
        onChange={(e) => set("title", e.target.value)}
        hint={
          <span className={titleLength > LIMITS.titleMax ? "counter over" : titleLength > LIMITS.titleWarn ? "counter warn" : "counter"} aria-live="polite">
            {titleLength}/{LIMITS.titleMax}
          </span>
        }
      />
      <TextAreaField
        label="Description"
        rows={6}
        value={fields.description}
        error={errors.description}
        maxLength={LIMITS.descriptionMax}
        onChange={(e) => set("description", e.target.value)}
        hint={
          <span className={descriptionLength > LIMITS.descriptionWarn ? "counter warn" : "counter"} aria-live="polite">
            {descriptionLength}/{LIMITS.descriptionMax}
          </span>
        }
      />
      <div className="grid-2">
        <SelectField label="Unit type" value={fields.unit_type} error={errors.unit_type} onChange={(e) => set("unit_type", e.target.value)}>
          <option value="">Choose a unit type</option>
          {UNIT_TYPES.map((u) => (
            <option key={u} value={u}>
              {unitLabel(u)}
            </option>
          ))}
        </SelectField>
        <TextField label="Monthly rent ($)" type="number" inputMode="numeric" min={1} step={1} value={fields.monthly_rent} error={errors.monthly_rent} onChange={(e) => set("monthly_rent", e.target.value)} />
      </div>
      <AddressInput value={fields.address} onChange={(v) => set("address", v)} error={errors.address} maxLength={LIMITS.addressMax} />
      <div className="grid-2">
        <SelectField label="Lease term" value={fields.lease_term} error={errors.lease_term} onChange={(e) => set("lease_term", e.target.value)}>
          <option value="">Choose a term</option>
          {LEASE_TERMS.map((t) => (
            <option key={t} value={t}>
              {termLabel(t)}
            </option>
          ))}
        </SelectField>
        <UniversitySelect value={fields.university_id} error={errors.university_id} emptyLabel="Choose a university" onChange={(v) => set("university_id", v)} />
      </div>
      <div className="grid-2">
        <SelectField label="Roommate gender preference" value={fields.gender_preference} onChange={(e) => set("gender_preference", e.target.value)}>
          {GENDER_PREFERENCES.map((g) => (
            <option key={g} value={g}>
              {GENDER_LABELS[g]}
            </option>
          ))}
        </SelectField>
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
        <p className="field-hint">Up to 10 photos, maximum 5MB each. The first photo is the primary one.</p>
        {photos.length > 0 && (
          <ul className="photo-grid">
            {photos.map((p, i) => (
              <li key={p.kind === "new" ? p.preview : p.url} className={i === 0 ? "primary" : ""}>
                <img src={p.kind === "new" ? p.preview : p.thumb} alt={`Photo ${i + 1}${i === 0 ? " (primary)" : ""}`} />
                <div className="photo-actions">
                  {i === 0 ? (
                    <span className="badge">Primary</span>
                  ) : (
                    <button type="button" className="link-button" onClick={() => makePrimary(i)}>
                      Set as primary
                    </button>
                  )}
                  <button type="button" className="link-button" aria-label={`Remove photo ${i + 1}`} onClick={() => remove(i)}>
                    Remove
                  </button>
                </div>
              </li>
            ))}
          </ul>
        )}
        <label className="button button-ghost">
          Add photos
          <input ref={fileInput} type="file" multiple accept="image/*,.heic,.heif" className="visually-hidden" onChange={(e) => addFiles(e.target.files)} disabled={busy} />
        </label>
        {errors.photos && (
          <p className="field-error" role="alert">
            {errors.photos}
          </p>
        )}
      </fieldset>
      {stage && (
        <p className="form-notice" role="status">
          {stage}
        </p>
      )}
      {progress !== null && <ProgressBar value={progress} label="Uploading photos" />}
      <FormError message={formError} />
      <button type="submit" className="button button-primary button-lg" disabled={busy}>
        {busy ? stage : editing ? "Save changes" : "Submit listing"}
      </button>
    </form>
  );
}
