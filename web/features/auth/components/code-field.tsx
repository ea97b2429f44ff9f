import type { ComponentProps } from "react";
import { EMAILED_CODE } from "@contract/limits";
import { TextField } from "../../../components/ui/field";

/** Why an emailed code cannot be sent as typed (the contract's words), or null. */
export const codeProblem = (code: string): string | null => (EMAILED_CODE.pattern.test(code) ? null : EMAILED_CODE.message);

/** Keeps the digits of what was typed or pasted, up to a code's length. */
export const codeDigits = (text: string) => text.replace(/\D/g, "").slice(0, EMAILED_CODE.length);

type CodeFieldProps = Omit<ComponentProps<typeof TextField>, "label" | "onChange" | "value"> & { label?: string; value: string; onCode: (code: string) => void };

/** The field for an emailed 6-digit code: digits only, and the phone's keyboard offers the code from the email. */
export function CodeField({ value, onCode, label = "Code", ...props }: CodeFieldProps) {
  return (
    <TextField
      label={label}
      inputMode="numeric"
      autoComplete="one-time-code"
      maxLength={EMAILED_CODE.length}
      value={value}
      onChange={(e) => onCode(codeDigits(e.target.value))}
      data-autofocus
      {...props}
    />
  );
}
