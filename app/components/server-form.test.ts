import { describe, expect, test } from "vitest";
import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useServerForm } from "./server-form";

describe("useServerForm", () => {
  test("before a submission: the page's values as fields hold them, no messages", () => {
    const [form, fields] = useServerForm({
      id: "f",
      defaultValue: { days: 30, own: true, off: false, note: "hi", all: { window: "6 months" } },
    });
    expect(getFormProps(form)).toEqual({ id: "f", noValidate: true });
    expect(getInputProps(fields.days, { type: "text" })).toEqual({
      id: "f-days",
      name: "days",
      form: "f",
      type: "text",
      defaultValue: "30",
    });
    expect(getInputProps(fields.own, { type: "checkbox" })).toMatchObject({ value: "on", defaultChecked: true });
    expect(getInputProps(fields.off, { type: "checkbox" })).toMatchObject({ defaultChecked: false });
    expect(getTextareaProps(fields.note)).toMatchObject({ defaultValue: "hi" });
    const all = fields.all.getFieldset();
    expect(getSelectProps(all.window)).toEqual({ id: "f-all.window", name: "all.window", form: "f", defaultValue: "6 months" });
  });

  test("after a refusal: the typed values and each field's messages, marked for assistive technology", () => {
    const [form, fields] = useServerForm({
      id: "f",
      defaultValue: { days: 30, all: { window: "6 months" } },
      lastResult: {
        status: "error",
        initialValue: { days: "400", all: { window: "12 months" }, kind: ["a", "b"] },
        error: { days: ["Use at most 365 days."], "": ["Some values need a second look."], note: [] },
      },
    });
    expect(form.status).toBe("error");
    expect(form.value).toMatchObject({ days: "400" });
    expect(form.errors).toEqual(["Some values need a second look."]);
    expect(form.allErrors).toEqual({ days: ["Use at most 365 days."], "": ["Some values need a second look."] });
    expect(getFormProps(form)).toEqual({ id: "f", noValidate: true, "aria-describedby": "f-error" });
    expect(getInputProps(fields.days, { type: "text" })).toEqual({
      id: "f-days",
      name: "days",
      form: "f",
      type: "text",
      defaultValue: "400",
      "aria-invalid": true,
      "aria-describedby": "f-days-error",
    });
    expect(fields.days.errors).toEqual(["Use at most 365 days."]);
    expect(fields.note.errors).toBeUndefined();
    expect(getSelectProps(fields.all.getFieldset().window)).toMatchObject({ defaultValue: "12 months" });
    expect(getInputProps(fields.kind, { type: "checkbox", value: "b" })).toMatchObject({ defaultChecked: true });
    expect(getInputProps(fields.kind, { type: "checkbox", value: "c" })).toMatchObject({ defaultChecked: false });
  });

  test("a success reply brings no messages and the page's values", () => {
    const [form, fields] = useServerForm({ id: "f", defaultValue: { days: "30" }, lastResult: { status: "success", initialValue: null } });
    expect(form.errors).toBeUndefined();
    expect(form.value).toBeUndefined();
    expect(getInputProps(fields.days, { type: "text" })).toMatchObject({ defaultValue: "30" });
  });
});
