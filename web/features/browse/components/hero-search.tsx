import { useState, type FormEvent } from "react";
import { useNavigate, useSearchParams } from "react-router-dom";
import { LEASE_TERMS } from "@contract/constants";
import { useUniversities } from "../../../lib/universities";

const termLabel = (term: string) => term[0]!.toUpperCase() + term.slice(1);

/** University and term pickers whose choice lives in the query string (spec: filters come from it). */
export function HeroSearch() {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const universities = useUniversities();
  const [university, setUniversity] = useState(params.get("university") ?? "");
  const [term, setTerm] = useState(params.get("term") ?? "");

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const next = new URLSearchParams(params);
    if (university) next.set("university", university);
    else next.delete("university");
    if (term) next.set("term", term);
    else next.delete("term");
    navigate({ search: next.toString() });
  }

  return (
    <form className="hero-search" onSubmit={onSubmit} aria-label="Find a sublease">
      <label className="field">
        <span className="field-label">University</span>
        <select
          value={university}
          onChange={(e) => setUniversity(e.target.value)}
          disabled={universities.isPending}
          aria-describedby={universities.isError ? "universities-error" : undefined}
        >
          <option value="">{universities.isPending ? "Loading universities..." : "All universities"}</option>
          {universities.data?.map((u) => (
            <option key={u.id} value={u.id}>
              {u.name} ({u.abbreviation})
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span className="field-label">Term</span>
        <select value={term} onChange={(e) => setTerm(e.target.value)}>
          <option value="">Any term</option>
          {LEASE_TERMS.map((t) => (
            <option key={t} value={t}>
              {termLabel(t)}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="button button-primary button-lg">
        Search
      </button>
      {universities.isError && (
        <p id="universities-error" className="field-error" role="alert">
          Failed to load universities{" "}
          <button type="button" className="link-button" onClick={() => universities.refetch()}>
            Try again
          </button>
        </p>
      )}
    </form>
  );
}
