import { useUniversities } from "../lib/universities";
import { SelectField } from "./ui/field";

interface UniversitySelectProps {
  label?: string;
  value: string;
  onChange: (value: string) => void;
  error?: string | null;
  /** The first option's text (no university chosen). */
  emptyLabel: string;
  required?: boolean;
}

/** The one university picker of the forms: loading text, the list, and the product's load error. */
export function UniversitySelect({ label = "University", value, onChange, error, emptyLabel, required }: UniversitySelectProps) {
  const universities = useUniversities();
  return (
    <SelectField
      label={label}
      value={value}
      required={required}
      disabled={universities.isPending}
      error={error ?? (universities.isError ? "Failed to load universities" : undefined)}
      onChange={(e) => onChange(e.target.value)}
    >
      <option value="">{universities.isPending ? "Loading universities..." : emptyLabel}</option>
      {universities.data?.map((u) => (
        <option key={u.id} value={u.id}>
          {u.name} ({u.abbreviation})
        </option>
      ))}
    </SelectField>
  );
}
