/**
 * The demo marketplace seeded by `npm start` on an empty database: text and places only. Photos
 * come from scripts/demo-photos/ (sent by scripts/seed.mjs), so nothing here ships images.
 */
export const DEMO_PASSWORD_LISTER = "lister-demo-123";
export const DEMO_PASSWORD_STUDENT = "student-demo-123";

export const DEMO_USERS = [
  { key: "lister", email: "lister@campusnest.dev", first: "Maya", last: "Lopez", uni: "UF", idStatus: "verified", password: DEMO_PASSWORD_LISTER },
  { key: "student", email: "student@campusnest.dev", first: "Sam", last: "Carter", uni: "FSU", idStatus: "unverified", password: DEMO_PASSWORD_STUDENT },
  { key: "owner1", email: "jordan.kim@campusnest.dev", first: "Jordan", last: "Kim", uni: "UT Austin", idStatus: "verified", password: DEMO_PASSWORD_LISTER },
  { key: "owner2", email: "priya.shah@campusnest.dev", first: "Priya", last: "Shah", uni: "UCLA", idStatus: "verified", password: DEMO_PASSWORD_LISTER },
  { key: "owner3", email: "diego.ramos@campusnest.dev", first: "Diego", last: "Ramos", uni: "UMich", idStatus: "verified", password: DEMO_PASSWORD_LISTER },
  { key: "owner4", email: "emma.nguyen@campusnest.dev", first: "Emma", last: "Nguyen", uni: "NYU", idStatus: "verified", password: DEMO_PASSWORD_LISTER },
  { key: "owner5", email: "liam.brooks@campusnest.dev", first: "Liam", last: "Brooks", uni: "FSU", idStatus: "verified", password: DEMO_PASSWORD_LISTER },
  { key: "owner6", email: "sofia.martinez@campusnest.dev", first: "Sofia", last: "Martinez", uni: "UCF", idStatus: "verified", password: DEMO_PASSWORD_LISTER },
  { key: "owner7", email: "noah.patel@campusnest.dev", first: "Noah", last: "Patel", uni: "Georgia Tech", idStatus: "verified", password: DEMO_PASSWORD_LISTER },
  { key: "owner8", email: "ava.johnson@campusnest.dev", first: "Ava", last: "Johnson", uni: "OSU", idStatus: "verified", password: DEMO_PASSWORD_LISTER },
  { key: "owner9", email: "ethan.wong@campusnest.dev", first: "Ethan", last: "Wong", uni: "UW", idStatus: "verified", password: DEMO_PASSWORD_LISTER },
] as const;

/**
 * Universities with listings, by abbreviation (migration 0001), with a city and streets nearby. Each
 * needs a verified demo user of the same university above: listings are listed by their own students.
 */
export const DEMO_PLACES = [
  { abbr: "UF", city: "Gainesville", state: "FL", zip: "32601", streets: ["SW 13th St", "NW 17th St", "SW 20th Ave", "Archer Rd", "W University Ave", "SW 2nd Ave"] },
  { abbr: "FSU", city: "Tallahassee", state: "FL", zip: "32304", streets: ["W Tennessee St", "Ocala Rd", "Pensacola St", "Stadium Dr", "W Call St", "Macomb St"] },
  { abbr: "UCF", city: "Orlando", state: "FL", zip: "32817", streets: ["Alafaya Trl", "University Blvd", "Gemini Blvd", "McCulloch Rd", "Rouse Rd", "Lokanotosa Trl"] },
  { abbr: "UT Austin", city: "Austin", state: "TX", zip: "78705", streets: ["Guadalupe St", "W 24th St", "Nueces St", "San Antonio St", "Rio Grande St", "W 26th St"] },
  { abbr: "UCLA", city: "Los Angeles", state: "CA", zip: "90024", streets: ["Gayley Ave", "Landfair Ave", "Kelton Ave", "Strathmore Dr", "Midvale Ave", "Veteran Ave"] },
  { abbr: "UMich", city: "Ann Arbor", state: "MI", zip: "48104", streets: ["S State St", "E William St", "Packard St", "S Division St", "Church St", "E Hoover Ave"] },
  { abbr: "NYU", city: "New York", state: "NY", zip: "10003", streets: ["E 10th St", "Bleecker St", "3rd Ave", "E 13th St", "Thompson St", "Lafayette St"] },
  { abbr: "Georgia Tech", city: "Atlanta", state: "GA", zip: "30313", streets: ["Techwood Dr", "10th St NW", "Hemphill Ave", "State St NW", "Spring St NW", "14th St NW"] },
  { abbr: "OSU", city: "Columbus", state: "OH", zip: "43201", streets: ["N High St", "E 15th Ave", "Indianola Ave", "Chittenden Ave", "E Woodruff Ave", "Neil Ave"] },
  { abbr: "UW", city: "Seattle", state: "WA", zip: "98105", streets: ["University Way NE", "NE 45th St", "Brooklyn Ave NE", "Roosevelt Way NE", "NE 50th St", "17th Ave NE"] },
] as const;

export const TITLE_TEMPLATES = [
  "Sunny {unit} near campus",
  "Furnished {unit}, walk to class",
  "Quiet {unit} with balcony",
  "Spacious {unit} by {abbr}",
  "Modern {unit}, utilities incl.",
  "Cozy {unit} on bus route",
  "Renovated {unit} w/ in-unit W/D",
  "Bright {unit} close to {abbr}",
  "{term} sublease: {unit}",
  "Private room in {unit}",
] as const;

export const DESCRIPTION_PARTS = {
  opening: [
    "Subleasing my room while I'm away for an internship.",
    "I'm graduating early and need someone to take over my lease.",
    "Studying abroad next term, so my spot is open.",
    "Moving closer to my lab, so this place is available.",
    "Looking for a responsible student to take over the rest of my lease.",
  ],
  unit: [
    "The unit is fully furnished with a bed, desk, dresser and a comfy couch in the living room.",
    "Kitchen has a dishwasher, full-size fridge and plenty of cabinet space.",
    "Each bedroom has its own bathroom and a walk-in closet.",
    "Big windows get great afternoon light and the building is very quiet.",
    "High-speed internet and water are included in the rent.",
  ],
  area: [
    "It's a short walk to campus and right next to a grocery store and coffee shops.",
    "The campus shuttle stops right outside the building every 10 minutes.",
    "The complex has a gym, study rooms and a pool.",
    "There's covered bike storage and the neighborhood is safe and well lit.",
    "Lots of restaurants nearby and an easy bike ride to the library.",
  ],
  closing: [
    "Roommates are friendly, clean and mostly keep to themselves.",
    "Happy to do a video tour; message me with any questions!",
    "Lease dates are flexible by a week or two on either side.",
    "Landlord approves subleases quickly and the process is simple.",
  ],
} as const;
