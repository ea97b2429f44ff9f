import type { Db } from "../db/client";
import { universityExists } from "../db/queries/universities";
import { validationFailed } from "../lib/errors";

/** A university id from a form: absent or null is fine, an unknown one is an error on that field. */
export async function checkUniversity(db: Db, id: number | null | undefined, path = "university_id") {
  if (id === null || id === undefined) return;
  if (!(await universityExists(db, id))) throw validationFailed([{ path, message: "Please choose a university from the list" }]);
}
