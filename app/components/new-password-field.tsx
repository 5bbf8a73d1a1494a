import { getInputProps, type FieldMetadata } from "@conform-to/react";
import { useState } from "react";
import { PasswordRules } from "~/components/password-rules";
import { Field } from "~/components/ui/field";
import type { PasswordPolicy } from "~/utils/password-policy";

/** A new-password input with the policy's rules ticked off as the user types (seed §5). */
export function NewPasswordField({ label, field, policy }: { label: string; field: FieldMetadata<string>; policy: PasswordPolicy }) {
  const [password, setPassword] = useState("");
  return (
    <div>
      <Field
        label={label}
        {...getInputProps(field, { type: "password" })}
        id={field.id}
        autoComplete="new-password"
        errors={field.errors}
        onChange={(e) => setPassword(e.currentTarget.value)}
      />
      <PasswordRules policy={policy} password={password} />
    </div>
  );
}
