/** Bots fill every field; people never see this one. A filled honeypot is refused quietly. */
export const HONEYPOT_FIELD = "website";

export function assertNotBot(formData: FormData) {
  const value = formData.get(HONEYPOT_FIELD);
  if (typeof value === "string" && value.trim() !== "") {
    throw new Response("Form rejected.", { status: 400 });
  }
}
