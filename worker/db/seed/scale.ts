/**
 * A market-sized database for benchmarks and tests at size (development only: routes/dev
 * `POST /api/v1/dev/scale-seed`, `npm run seed:scale`; docs/decisions/038). Synthetic users, listings
 * over every university (the demo photos reused by key, varied dates, a share promoted, some pending,
 * rejected, taken or hidden), conversations with messages, and deals in every state, brought up to the
 * counts asked: rows have deterministic ids (`scl` + kind + number), each kind continues after its
 * highest id, and every insert ignores an id already there, so repeating a call adds nothing.
 * Rows go in as JSON arrays read by json_each, a few hundred per statement and one bound parameter
 * each (D1's 100-parameter limit), several statements per batch.
 */
import { DEAL_STATUSES, type DealStatus } from "../../contract/deals";
import { nextTermDates } from "../../contract/forms";
import { publicAddress } from "../../contract/address";
import { GENDER_PREFERENCES, LEASE_TERMS, UNIT_TYPES } from "../../contract/constants";
import { fairGenderPreference } from "../../contract/policies";
import { distanceToCampus, pointOf } from "../../lib/geo-distance";
import { purgeListingCache } from "../../services/edge-cache";
import { hashPassword } from "../../services/passwords";
import { chunks } from "../bounded";
import { createDb, type Db } from "../client";
import { DESCRIPTION_PARTS, TITLE_TEMPLATES } from "./demo-data";
import { demoPlace } from "./seed";

export interface ScaleCounts {
  listings: number;
  users: number;
  conversations: number;
  messages_per_conversation: number;
}

export interface ScaleSeedResult {
  /** The synthetic rows there now. */
  users: number;
  listings: number;
  conversations: number;
  messages: number;
  deals: number;
  /** What this call added. */
  added: { users: number; listings: number; conversations: number; messages: number; deals: number };
  /** Distinct demo photo keys the listings reuse (0: no demo data, listings without photos). */
  photo_keys: number;
}

/** The password of every synthetic account (development only). */
export const SCALE_PASSWORD = "scale-seed-password";
const SCALE_EMAIL_DOMAIN = "scale.campusnest.dev";
/** Deals of each state (on the first conversations). */
const DEALS_PER_STATE = 3;
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

/** A synthetic id: `scl`, the kind's letter, the number in 17 digits (21 characters, as newId's). */
const sid = (kind: "U" | "L" | "C" | "M" | "D" | "P", n: number) => `scl${kind}${String(n).padStart(17, "0")}`;
const numberOf = (id: string | null | undefined) => (id ? Number(id.slice(4)) : -1);

/** Per statement: rows of one JSON parameter (a few hundred KB at most), and statements per batch. */
const ROWS_PER_STATEMENT = { users: 500, listings: 200, photos: 800, conversations: 500, messages: 800 } as const;
const STATEMENTS_PER_BATCH = 10;

const FIRST_NAMES = ["Alex", "Jordan", "Taylor", "Morgan", "Casey", "Riley", "Jamie", "Avery", "Quinn", "Harper", "Rowan", "Skyler", "Emerson", "Finley", "Dakota"];
const LAST_NAMES = ["Garcia", "Smith", "Nguyen", "Patel", "Kim", "Johnson", "Lee", "Brown", "Davis", "Martinez", "Wilson", "Chen", "Lopez", "Clark", "Lewis"];
const STREETS = ["College Ave", "University Blvd", "Campus Dr", "Main St", "Oak St", "Elm St", "Park Ave", "Maple Ave", "2nd St", "Lake Rd"];
const MESSAGES = [
  "Hi! Is the room still available for the summer?",
  "Yes it is. When would you like to move in?",
  "Around mid May. Is parking included in the rent?",
  "Parking is included, one spot in the garage. Utilities are about $60 a month.",
  "Great. Could I see it this weekend?",
  "Saturday afternoon works. Message me when you're outside.",
  "Thanks! Are the roommates okay with a cat?",
  "Sounds good, see you then!",
];

/** Deterministic draws: the n-th value of a stream, the same on every run. */
const draw = (n: number, salt: number) => {
  let t = (n * 2654435761 + salt * 40503) >>> 0;
  t = Math.imul(t ^ (t >>> 15), 1 | t);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const pick = <T>(items: readonly T[], n: number, salt: number): T => items[Math.floor(draw(n, salt) * items.length)]!;

type University = { id: number; abbreviation: string; state: string; latitude: number | null; longitude: number | null };

/** Synthetic users are ID-verified but every tenth; user i studies at university i mod the universities' count. */
const isVerifiedUser = (i: number) => i % 10 !== 9;

/**
 * Listing j's owner: a verified user of university j mod `universities` (the listings go round every
 * university), taking that university's users in turn; where it has no verified user, a verified user
 * of another (the listing is at its owner's university).
 */
function ownerOf(j: number, users: number, universities: number): number {
  const u = j % universities;
  const there = Math.ceil((users - u) / universities);
  for (let step = 0; step < there; step++) {
    const i = u + universities * ((Math.floor(j / universities) + step) % there);
    if (isVerifiedUser(i)) return i;
  }
  const i = j % users;
  return isVerifiedUser(i) ? i : i - 1;
}

/** The highest synthetic number of a kind there (-1: none), from the primary key's range. */
async function highest(db: Db, table: string, kind: string): Promise<number> {
  const row = await db.$client.prepare(`SELECT max(id) AS id FROM ${table} WHERE id >= ?1 AND id < ?2`).bind(`scl${kind}`, `scl${kind}~`).first<{ id: string | null }>();
  return numberOf(row?.id);
}

const countOf = async (db: Db, table: string, kind: string) =>
  (await db.$client.prepare(`SELECT count(*) AS n FROM ${table} WHERE id >= ?1 AND id < ?2`).bind(`scl${kind}`, `scl${kind}~`).first<{ n: number }>())?.n ?? 0;

/** Inserts rows (arrays) through `sql`, which reads `value ->> n` from json_each(?1): chunked statements, a few per batch. */
async function insertRows(db: Db, sql: string, rows: unknown[][], perStatement: number): Promise<void> {
  const statements = chunks(rows, perStatement).map((chunk) => db.$client.prepare(sql).bind(JSON.stringify(chunk)));
  for (const batch of chunks(statements, STATEMENTS_PER_BATCH)) await db.$client.batch(batch);
}

/** `value ->> '$[i]'` for i in 0..n-1: the columns of a row array. */
const columns = (n: number) => Array.from({ length: n }, (_, i) => `value ->> '$[${i}]'`).join(", ");

/**
 * The listings' photos by key: hands the seeded listings to the copied-photo check. The photo-hashing
 * queue (docs/decisions/028, being moved to Cloudflare Queues) is not on this branch: until its enqueue
 * function lands, nothing is hashed here (the demo photos' keys are reused, so each picture would be
 * hashed once, by its bytes). This is the one place to call it from.
 */
async function queueSeededPhotoHashing(_env: Env, _listingIds: string[]): Promise<void> {}

export async function seedScale(env: Env, counts: ScaleCounts): Promise<ScaleSeedResult> {
  const db = createDb(env);
  const now = Date.now();
  const universities = (
    await db.$client.prepare("SELECT id, abbreviation, state, latitude, longitude FROM universities ORDER BY id").all<University>()
  ).results;
  const added = { users: 0, listings: 0, conversations: 0, messages: 0, deals: 0 };

  // Users: ID-verified but every tenth, spread over every university, created over the last year (a few each day of the last ten).
  const firstUser = (await highest(db, "users", "U")) + 1;
  if (firstUser < counts.users) {
    const passwordHash = await hashPassword(SCALE_PASSWORD);
    const rows: unknown[][] = [];
    for (let i = firstUser; i < counts.users; i++) {
      const uni = universities[i % universities.length]!;
      const age = i % 50 === 0 ? Math.floor(draw(i, 1) * 10) * DAY_MS : draw(i, 2) * 365 * DAY_MS;
      rows.push([
        sid("U", i),
        `scale-user-${i}@${SCALE_EMAIL_DOMAIN}`,
        passwordHash,
        pick(FIRST_NAMES, i, 3),
        `${pick(LAST_NAMES, i, 4)}`,
        uni.id,
        isVerifiedUser(i) ? "verified" : "unverified",
        new Date(now - age).toISOString(),
      ]);
    }
    await insertRows(
      db,
      `INSERT OR IGNORE INTO users (id, email, password_hash, first_name, last_name, university_id, id_verification_status, created_at, email_verification_status)
       SELECT ${columns(8)}, 'verified' FROM json_each(?1)`,
      rows,
      ROWS_PER_STATEMENT.users,
    );
    added.users = rows.length;
  }
  const users = Math.max(counts.users, firstUser);

  // Listings over every university (the owner's), each with one to four demo photos reused by key.
  const photoKeys = (
    await db.$client
      .prepare("SELECT DISTINCT key, thumb_key FROM listing_photos WHERE listing_id < 'sclL' OR listing_id >= 'sclL~' ORDER BY key LIMIT 64")
      .all<{ key: string; thumb_key: string | null }>()
  ).results;
  const firstListing = (await highest(db, "listings", "L")) + 1;
  const newListings: string[] = [];
  if (firstListing < counts.listings && users > 0) {
    const rows: unknown[][] = [];
    const photos: unknown[][] = [];
    const today = new Date(now).toISOString().slice(0, 10);
    for (let j = firstListing; j < counts.listings; j++) {
      const owner = ownerOf(j, users, universities.length);
      const uni = universities[owner % universities.length]!;
      const unit = pick(UNIT_TYPES, j, 5);
      const term = pick(LEASE_TERMS, j, 6);
      const dates = nextTermDates(term, today);
      const shift = Math.round((draw(j, 7) - 0.5) * 20);
      const from = new Date(Date.parse(`${dates.from}T00:00:00Z`) + (draw(j, 8) < 0.7 ? 0 : shift) * DAY_MS).toISOString().slice(0, 10);
      const campus = pointOf(uni.latitude, uni.longitude);
      const spot = campus && draw(j, 9) > 0.15 ? demoPlace(campus, j) : null;
      const address = `${100 + Math.floor(draw(j, 10) * 3900)} ${pick(STREETS, j, 11)}, ${uni.abbreviation} area, ${uni.state}`;
      // About 84 % approved, 10 % pending, 3 % rejected; of the approved, a few taken, paused or hidden by staff, 3 % promoted.
      const r = draw(j, 12);
      const review = r < 0.1 ? "pending" : r < 0.13 ? "rejected" : "approved";
      const s = draw(j, 13);
      const status = review === "approved" && s < 0.04 ? "taken" : review === "approved" && s < 0.06 ? "paused" : "available";
      const moderation = review === "approved" && s > 0.99 ? "hidden" : "visible";
      const promoted = review === "approved" && status === "available" && draw(j, 14) < 0.03;
      const created = now - (counts.listings - j) * 20 * 60_000 - Math.floor(draw(j, 15) * 600_000);
      const title = pick(TITLE_TEMPLATES, j, 16)
        .replace("{unit}", unit === "studio" ? "studio" : unit)
        .replace("{abbr}", uni.abbreviation)
        .replace("{term}", term[0]!.toUpperCase() + term.slice(1))
        .slice(0, 35);
      const description = [
        pick(DESCRIPTION_PARTS.opening, j, 17),
        pick(DESCRIPTION_PARTS.unit, j, 18),
        pick(DESCRIPTION_PARTS.area, j, 19),
        pick(DESCRIPTION_PARTS.closing, j, 20),
      ].join(" ");
      const rent = Math.max(350, Math.round((700 + (uni.id % 9) * 120 + draw(j, 21) * 900) / 5) * 5);
      rows.push([
        sid("L", j),
        sid("U", owner),
        uni.id,
        title,
        description,
        unit,
        address,
        publicAddress(address),
        rent,
        term,
        from,
        dates.to,
        spot?.latitude ?? null,
        spot?.longitude ?? null,
        distanceToCampus(spot, campus),
        draw(j, 22) < 0.45 ? 1 : 0,
        draw(j, 23) < 0.35 ? 1 : 0,
        fairGenderPreference(unit, pick([...GENDER_PREFERENCES, "no_preference", "no_preference"], j, 24)),
        review,
        review === "rejected" ? "Photos do not show the unit described." : null,
        review === "approved" ? rent : null,
        status,
        moderation,
        promoted ? new Date(now - 2 * DAY_MS).toISOString() : null,
        promoted ? new Date(now + 5 * DAY_MS).toISOString() : null,
        promoted ? "admin" : null,
        new Date(created).toISOString(),
        new Date(Math.max(created, now - (j % 10) * DAY_MS)).toISOString(),
      ]);
      newListings.push(sid("L", j));
      if (photoKeys.length) {
        const many = 1 + Math.floor(draw(j, 25) * 4);
        for (let p = 0; p < many; p++) {
          const photo = photoKeys[(j * 7 + p * 13) % photoKeys.length]!;
          photos.push([sid("P", j * 10 + p), sid("L", j), photo.key, photo.thumb_key, p]);
        }
      }
    }
    await insertRows(
      db,
      `INSERT OR IGNORE INTO listings (id, user_id, university_id, title, description, unit_type, address, address_public, monthly_rent, lease_term,
         available_from, available_to, latitude, longitude, distance_miles, parking, allow_pets, gender_preference, verification_status, rejection_reason,
         approved_rent, status, moderation_status, promotion_start, promotion_end, promotion_source, created_at, availability_confirmed_at)
       SELECT ${columns(28)} FROM json_each(?1)`,
      rows,
      ROWS_PER_STATEMENT.listings,
    );
    // One photo row per (listing, position); the same key on many listings, as demo listings share photos.
    await insertRows(db, `INSERT OR IGNORE INTO listing_photos (id, listing_id, key, thumb_key, position) SELECT ${columns(5)} FROM json_each(?1)`, photos, ROWS_PER_STATEMENT.photos);
    added.listings = rows.length;
  }
  const listings = Math.max(counts.listings, firstListing);
  await queueSeededPhotoHashing(env, newListings);

  // Conversations: a renter (user c) asks about a listing of another owner; the listing's owner answers.
  const firstConversation = (await highest(db, "conversations", "C")) + 1;
  const pairOf = (c: number) => {
    const listing = (c * 7 + Math.floor(listings / 2)) % listings;
    const lister = ownerOf(listing, users, universities.length);
    const renter = c % users === lister ? (c + 1) % users : c % users;
    return { listing, lister, renter, started: now - (counts.conversations - c) * 3 * HOUR_MS };
  };
  const messagesPer = counts.messages_per_conversation;
  if (firstConversation < counts.conversations && users > 1 && listings > 0) {
    const rows: unknown[][] = [];
    for (let c = firstConversation; c < counts.conversations; c++) {
      const { listing, lister, renter, started } = pairOf(c);
      const [a, b] = [sid("U", renter), sid("U", lister)].sort();
      rows.push([sid("C", c), a, b, sid("L", listing), sid("U", renter), new Date(started).toISOString()]);
    }
    // A pair talks in one conversation (conversations_pair_unique): a repeated pair is skipped.
    await insertRows(db, `INSERT OR IGNORE INTO conversations (id, user_a, user_b, listing_id, started_by, created_at) SELECT ${columns(6)} FROM json_each(?1)`, rows, ROWS_PER_STATEMENT.conversations);
    added.conversations = rows.length;
  }
  const conversations = Math.max(counts.conversations, firstConversation);

  // Messages: up to messages_per_conversation in each (topped up when a call asks for more), then each conversation's last message.
  const firstHeld = conversations && messagesPer ? ((await db.$client.prepare("SELECT count(*) AS n FROM messages WHERE conversation_id = ?").bind(sid("C", 0)).first<{ n: number }>())?.n ?? 0) : 0;
  const messageFrom = firstHeld < messagesPer ? 0 : firstConversation;
  if (messagesPer > 0 && messageFrom < counts.conversations) {
    const rows: unknown[][] = [];
    for (let c = messageFrom; c < counts.conversations; c++) {
      const { renter, lister, started } = pairOf(c);
      for (let m = 0; m < messagesPer; m++) {
        const at = new Date(started + (m + 1) * 37 * 60_000).toISOString();
        rows.push([sid("M", c * 100 + m), sid("C", c), sid("U", m % 2 ? lister : renter), MESSAGES[m % MESSAGES.length], m < messagesPer - 1 ? at : null, at]);
      }
    }
    const before = await countOf(db, "messages", "M");
    await insertRows(
      db,
      // Only into conversations there (a skipped pair has none).
      `INSERT OR IGNORE INTO messages (id, conversation_id, sender_id, text, read_at, created_at)
       SELECT ${columns(6)} FROM json_each(?1) WHERE EXISTS (SELECT 1 FROM conversations c WHERE c.id = value ->> '$[1]')`,
      rows,
      ROWS_PER_STATEMENT.messages,
    );
    const ids = Array.from({ length: counts.conversations - messageFrom }, (_, k) => sid("C", messageFrom + k));
    for (const batch of chunks(chunks(ids, 500), STATEMENTS_PER_BATCH))
      await db.$client.batch(
        batch.map((chunk) =>
          db.$client
            .prepare(
              `UPDATE conversations SET
                 last_message_preview = (SELECT text FROM messages m WHERE m.conversation_id = conversations.id ORDER BY created_at DESC, id DESC LIMIT 1),
                 last_message_at = (SELECT created_at FROM messages m WHERE m.conversation_id = conversations.id ORDER BY created_at DESC, id DESC LIMIT 1)
               WHERE id IN (SELECT value FROM json_each(?1))`,
            )
            .bind(JSON.stringify(chunk)),
        ),
      );
    added.messages = (await countOf(db, "messages", "M")) - before;
  }

  // Deals: DEALS_PER_STATE of every state, each on a conversation of its own (the pair and its listing).
  const dealRows: unknown[][] = [];
  DEAL_STATUSES.forEach((status, s) => {
    for (let k = 0; k < DEALS_PER_STATE; k++) {
      const c = s * DEALS_PER_STATE + k;
      if (c >= conversations) return;
      dealRows.push(dealRow(c, status, pairOf(c), now));
    }
  });
  if (dealRows.length) {
    const before = await countOf(db, "deals", "D");
    await insertRows(
      db,
      `INSERT OR IGNORE INTO deals (id, listing_id, renter_id, lister_id, conversation_id, move_in, move_out, time_zone, status, listing_title, monthly_rent,
         fee_percent, payment_status, paid_cents, paid_rent_cents, paid_at, held_until, refund_due_cents, refunded_cents, transferred_cents, case_reason,
         expires_at, created_at, updated_at)
       SELECT d.c0, d.c1, d.c2, d.c3, d.c4, d.c5, d.c6, d.c7, d.c8, l.title, l.monthly_rent, d.c9, d.c10, d.c11, d.c12, d.c13, d.c14, d.c15, d.c16, d.c17, d.c18, d.c19, d.c20, d.c20
       FROM (SELECT ${Array.from({ length: 21 }, (_, i) => `value ->> '$[${i}]' AS c${i}`).join(", ")} FROM json_each(?1)) d
       JOIN listings l ON l.id = d.c1 JOIN conversations cv ON cv.id = d.c4`,
      dealRows,
      ROWS_PER_STATEMENT.conversations,
    );
    added.deals = (await countOf(db, "deals", "D")) - before;
  }

  // Cached browse answers and pages made before the new listings are refused from now on (decision 016).
  if (added.listings) await purgeListingCache([], db);
  return {
    users: await countOf(db, "users", "U"),
    listings: await countOf(db, "listings", "L"),
    conversations: await countOf(db, "conversations", "C"),
    messages: await countOf(db, "messages", "M"),
    deals: await countOf(db, "deals", "D"),
    added,
    photo_keys: photoKeys.length,
  };
}

/** A deal in `status` on conversation `c`'s pair: money held, released, refunded or disputed as its state has it. */
function dealRow(c: number, status: DealStatus, pair: { listing: number; lister: number; renter: number; started: number }, now: number): unknown[] {
  const paidRent = (900 + (c % 7) * 50) * 100;
  // The service fee: 5 % of the rent.
  const fee = paidRent / 20;
  const paid = ["paid", "moved_in", "released", "refunded", "disputed"].includes(status);
  const payment = { paid: "held", moved_in: "held", released: "released", refunded: "refunded", disputed: "disputed" }[status as string] ?? "none";
  const moveIn = new Date(now + (30 + c) * DAY_MS).toISOString().slice(0, 10);
  const moveOut = new Date(now + (120 + c) * DAY_MS).toISOString().slice(0, 10);
  const at = new Date(pair.started + HOUR_MS).toISOString();
  return [
    sid("D", c),
    sid("L", pair.listing),
    sid("U", pair.renter),
    sid("U", pair.lister),
    sid("C", c),
    moveIn,
    moveOut,
    "America/New_York",
    status,
    paid ? 5 : null,
    payment,
    paid ? paidRent + fee : 0,
    paid ? paidRent : 0,
    paid ? at : null,
    payment === "held" ? new Date(Date.parse(`${moveIn}T00:00:00Z`) + 2 * DAY_MS).toISOString() : null,
    status === "refunded" ? paidRent + fee : 0,
    status === "refunded" ? paidRent + fee : 0,
    status === "released" ? paidRent : 0,
    status === "disputed" ? "problem" : null,
    ["requested", "accepted", "signed"].includes(status) ? new Date(now + 3 * DAY_MS).toISOString() : null,
    at,
  ];
}
