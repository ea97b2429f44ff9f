/**
 * Seeds the demo marketplace into an empty database (development only; see routes/dev). Runs once:
 * if any user exists it does nothing, so `npm start` twice keeps the data.
 */
import { count } from "drizzle-orm";
import { inValues } from "../bounded";
import { GENDER_PREFERENCES, LEASE_TERMS, UNIT_TYPES } from "../../contract/constants";
import { nextTermDates } from "../../contract/forms";
import { fairGenderPreference } from "../../contract/policies";
import { publicAddress } from "../../contract/address";
import { badRequest } from "../../lib/errors";
import { distanceToCampus, pointOf, type LatLng } from "../../lib/geo-distance";
import { newId } from "../../lib/ids";
import { purgeListingCache } from "../../services/edge-cache";
import { enqueuePhotoCheck } from "../../services/photo-check";
import { backfillPublicAddresses } from "../../services/listings";
import { hashPassword } from "../../services/passwords";
import { IMMUTABLE } from "../../services/storage";
import { createDb } from "../client";
import { listingPhotos, listings, universities, users } from "../schema";
import { DEMO_PLACES, DEMO_USERS, DESCRIPTION_PARTS, TITLE_TEMPLATES } from "./demo-data";

export interface DemoPhoto {
  name: string;
  /** Base64 of a JPEG file. */
  data: string;
}

export interface SeedResult {
  seeded: boolean;
  users: number;
  listings: number;
  photos: number;
  /** Listings from before public addresses were stored, filled now (decision 024): a dev database kept across `npm start`. */
  publicAddresses: number;
}

const LISTINGS_PER_PLACE = 7;
const DAY_MS = 86_400_000;
/** Demo listings (by their number, place by place) left without coordinates: "unknown distance" shows too. */
const WITHOUT_COORDINATES = new Set([3, 24, 52]);

/**
 * The n-th demo listing's place near its campus (docs/decisions/019): deterministic, about 0.2 to 3.8 miles
 * away in a direction that turns by the golden angle from one listing to the next. No rnd call, so
 * the rest of the demo data stays as it was.
 */
export function demoPlace(campus: LatLng, n: number): LatLng {
  const miles = 0.2 + ((n * 7) % 20) * 0.19;
  const bearing = (n * 137.5 * Math.PI) / 180;
  const latitude = campus.latitude + (miles * Math.cos(bearing)) / 69.0;
  const longitude = campus.longitude + (miles * Math.sin(bearing)) / (69.0 * Math.cos((campus.latitude * Math.PI) / 180));
  return { latitude: Number(latitude.toFixed(6)), longitude: Number(longitude.toFixed(6)) };
}

/** `YYYY-MM-DD` moved by whole days. */
const addDays = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** A small deterministic PRNG so every fresh start shows the same marketplace. */
function prng(seed: number) {
  let s = seed;
  const next = () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s / 2147483648;
  };
  return {
    next,
    pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
  };
}

function decodeBase64(data: string): Uint8Array {
  const binary = atob(data);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function isJpeg(bytes: Uint8Array) {
  return bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;
}

export async function seedDemoData(env: Env, photos: DemoPhoto[]): Promise<SeedResult> {
  const db = createDb(env);
  const [existing] = await db.select({ n: count() }).from(users);
  if ((existing?.n ?? 0) > 0) return { seeded: false, users: 0, listings: 0, photos: 0, publicAddresses: await backfillPublicAddresses(db) };

  const abbreviations = [...new Set([...DEMO_PLACES.map((p) => p.abbr), ...DEMO_USERS.map((u) => u.uni)])];
  const uniRows = await db
    .select({ id: universities.id, abbreviation: universities.abbreviation, latitude: universities.latitude, longitude: universities.longitude })
    .from(universities)
    .where(inValues(universities.abbreviation, abbreviations));
  const uniId = new Map(uniRows.map((u) => [u.abbreviation, u.id]));
  const campusAt = new Map(uniRows.map((u) => [u.abbreviation, pointOf(u.latitude, u.longitude)]));
  const missing = abbreviations.filter((a) => !uniId.has(a));
  if (missing.length) throw new Error(`Seed universities missing: ${missing.join(", ")}`);

  // Check every photo before storing any, then store them under random keys like uploaded ones.
  const decoded = photos.map((photo) => {
    let bytes: Uint8Array;
    try {
      bytes = decodeBase64(photo.data);
    } catch {
      throw badRequest(`Seed photo ${photo.name} is not valid base64`);
    }
    if (!isJpeg(bytes)) throw badRequest(`Seed photo ${photo.name} is not a JPEG`);
    return { ...photo, bytes };
  });
  // Each demo owner has photos of their own (photo N goes to the (N-1) mod owners-th verified owner):
  // one photo on two owners' listings would be a copied photo (services/photo-check, decision 028).
  const ownerCount = DEMO_USERS.filter((user) => user.idStatus === "verified").length;
  const pools = Array.from({ length: ownerCount }, () => ({ exteriors: [] as string[], interiors: [] as string[] }));
  const thumbs = new Map(decoded.filter((p) => p.name.endsWith(".thumb.jpg")).map((p) => [p.name.replace(".thumb.jpg", ".jpg"), p.bytes]));
  const thumbKeys = new Map<string, string>();
  const put = (key: string, bytes: Uint8Array) =>
    env.IMAGES.put(key, bytes, { httpMetadata: { contentType: "image/jpeg", cacheControl: IMMUTABLE } });
  let stored = 0;
  for (const [index, photo] of decoded.filter((p) => !p.name.endsWith(".thumb.jpg")).entries()) {
    const key = `listings/${newId()}.jpg`;
    await put(key, photo.bytes);
    const thumb = thumbs.get(photo.name);
    if (thumb) {
      // Same naming as uploads (routes/listings): <key>.thumb.jpg beside the full photo.
      thumbKeys.set(key, key.replace(/\.jpg$/, ".thumb.jpg"));
      await put(thumbKeys.get(key)!, thumb);
    }
    const number = parseInt(photo.name, 10);
    const pool = pools[((Number.isNaN(number) ? index + 1 : number) - 1) % ownerCount]!;
    (photo.name.includes("exterior") ? pool.exteriors : pool.interiors).push(key);
    stored++;
  }

  const now = Date.now();
  const userIds = new Map<string, string>();
  const userRows: (typeof users.$inferInsert)[] = [];
  for (const u of DEMO_USERS) {
    const id = newId();
    userIds.set(u.key, id);
    userRows.push({
      id,
      email: u.email,
      passwordHash: await hashPassword(u.password),
      firstName: u.first,
      lastName: u.last,
      universityId: uniId.get(u.uni)!,
      emailVerificationStatus: "verified",
      idVerificationStatus: u.idStatus,
      createdAt: new Date(now - 60 * DAY_MS).toISOString(),
    });
  }

  // A place's listings belong to verified students of that university (a lister's university is their listings').
  const ownersAt = new Map<string, string[]>();
  const poolOf = new Map<string, (typeof pools)[number]>();
  for (const [i, u] of DEMO_USERS.filter((user) => user.idStatus === "verified").entries()) {
    ownersAt.set(u.uni, [...(ownersAt.get(u.uni) ?? []), userIds.get(u.key)!]);
    poolOf.set(userIds.get(u.key)!, pools[i]!);
  }
  const placesWithoutOwner = DEMO_PLACES.filter((p) => !ownersAt.has(p.abbr)).map((p) => p.abbr);
  if (placesWithoutOwner.length) throw new Error(`Seed places without a verified demo user: ${placesWithoutOwner.join(", ")}`);
  const rnd = prng(42);
  const listingRows: (typeof listings.$inferInsert)[] = [];
  const photoRows: (typeof listingPhotos.$inferInsert)[] = [];
  DEMO_PLACES.forEach((place, placeIndex) => {
    for (let i = 0; i < LISTINGS_PER_PLACE; i++) {
      const id = newId();
      const unit = rnd.pick(UNIT_TYPES.filter((t) => t !== "other"));
      const term = rnd.pick(LEASE_TERMS);
      const bedrooms = unit === "studio" ? 1 : Number(unit[0]);
      const base = { NYU: 1700, UCLA: 1500, UW: 1250, "UT Austin": 1050 }[place.abbr as string] ?? 750;
      const rent = Math.round((base + rnd.int(-150, 450) - bedrooms * 40) / 5) * 5;
      const title = rnd
        .pick(TITLE_TEMPLATES)
        .replace("{unit}", unit === "studio" ? "studio" : unit)
        .replace("{abbr}", place.abbr)
        .replace("{term}", term[0]!.toUpperCase() + term.slice(1));
      const description = [
        rnd.pick(DESCRIPTION_PARTS.opening),
        rnd.pick(DESCRIPTION_PARTS.unit),
        rnd.pick(DESCRIPTION_PARTS.area),
        rnd.pick(DESCRIPTION_PARTS.closing),
      ].join(" ");
      const createdAt = new Date(now - (placeIndex * LISTINGS_PER_PLACE + i) * 0.4 * DAY_MS - rnd.int(0, 3600_000));
      // Coordinates near the campus (a few without), and the term's next typical dates,
      // every fourth listing a week later in and ten days earlier out, so "I need it from ... to ..."
      // and "within N miles" find demo listings.
      const n = placeIndex * LISTINGS_PER_PLACE + i;
      const campus = campusAt.get(place.abbr) ?? null;
      const spot = campus && !WITHOUT_COORDINATES.has(n) ? demoPlace(campus, n) : null;
      const typical = nextTermDates(term, new Date(now).toISOString().slice(0, 10));
      const dates = n % 4 === 1 ? { from: addDays(typical.from, 7), to: addDays(typical.to, -10) } : typical;
      const promoted = i === 0 && placeIndex % 3 === 0;
      const address = `${rnd.int(100, 3999)} ${rnd.pick(place.streets)}, ${place.city}, ${place.state} ${place.zip}`;
      const owner = rnd.pick(ownersAt.get(place.abbr)!);
      const { interiors, exteriors } = poolOf.get(owner)!;
      listingRows.push({
        id,
        userId: owner,
        universityId: uniId.get(place.abbr)!,
        title: title.slice(0, 35),
        description,
        unitType: unit,
        address,
        addressPublic: publicAddress(address),
        monthlyRent: Math.max(350, rent),
        leaseTerm: term,
        availableFrom: dates.from,
        availableTo: dates.to,
        latitude: spot?.latitude ?? null,
        longitude: spot?.longitude ?? null,
        distanceMiles: distanceToCampus(spot, campus),
        parking: rnd.next() < 0.45,
        allowPets: rnd.next() < 0.35,
        // Picked for every unit (the rest of the demo data stays as it was), kept only for shared ones (decision 018).
        genderPreference: fairGenderPreference(unit, rnd.pick([...GENDER_PREFERENCES, "no_preference", "no_preference"])),
        verificationStatus: "approved",
        status: "available",
        promotionStart: promoted ? new Date(now - 2 * DAY_MS).toISOString() : null,
        promotionEnd: promoted ? new Date(now + 5 * DAY_MS).toISOString() : null,
        promotionSource: promoted ? "admin" : null,
        createdAt: createdAt.toISOString(),
        // Fresh listings: confirmed within the last 10 days (never before creation), so the demo shows
        // "Availability confirmed N days ago" and nothing is due a question at once. No rnd call: the
        // rest of the demo data stays as it was.
        availabilityConfirmedAt: new Date(Math.max(createdAt.getTime(), now - ((placeIndex + i) % 10) * DAY_MS)).toISOString(),
      });
      const photoKeys = [
        interiors.length ? interiors[(placeIndex * 7 + i) % interiors.length] : undefined,
        exteriors.length ? exteriors[(placeIndex + i) % exteriors.length] : undefined,
        ...Array.from({ length: rnd.int(1, 3) }, () => (interiors.length ? rnd.pick(interiors) : undefined)),
      ].filter((k, index, all): k is string => !!k && all.indexOf(k) === index);
      photoKeys.forEach((key, position) =>
        photoRows.push({ id: newId(), listingId: id, key, thumbKey: thumbKeys.get(key) ?? null, position }),
      );
    }
  });

  // D1 binds at most 100 parameters per statement: one statement per row, all in one batch
  // (a batch is atomic, so a failure leaves no half-seeded database).
  const statements = [
    ...userRows.map((row) => db.insert(users).values(row)),
    ...listingRows.map((row) => db.insert(listings).values(row)),
    ...photoRows.map((row) => db.insert(listingPhotos).values(row)),
  ];
  await db.batch(statements as [(typeof statements)[number], ...(typeof statements)[number][]]);
  // The demo photos are checked like any upload (docs/decisions/037): each stored file decoded once, however
  // many listings show it, so a copy of a demo photo is caught and the demo owners' own reuse never is.
  await enqueuePhotoCheck(env, listingRows.map((row) => row.id!));
  // A page or browse answer produced while this ran (an empty marketplace, `npm start`'s first view)
  // may sit in the edge cache: the new listings generation refuses it from now on (decision 016).
  await purgeListingCache([], db);
  return { seeded: true, users: userRows.length, listings: listingRows.length, photos: stored, publicAddresses: 0 };
}
