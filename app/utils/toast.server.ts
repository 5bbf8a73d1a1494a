import { redirect } from "@remix-run/node";
import { z } from "zod";
import { getCookies } from "~/sessions.server";

export const ToastSchema = z.object({
  id: z.string().default(() => crypto.randomUUID()),
  type: z.enum(["success", "error"]).default("success"),
  title: z.string().optional(),
  message: z.string(),
  duration: z.number().default(5000), // seed §9: toast default 5000 ms
  // A toast can carry an Undo: a POST form (its action, hidden fields and accessible name).
  undo: z
    .object({
      action: z.string(),
      label: z.string(),
      fields: z.array(z.object({ name: z.string(), value: z.string() })),
    })
    .optional(),
});

export type ToastInput = z.input<typeof ToastSchema>;

const KEY = "toast";

/** A Set-Cookie header carrying one toast to the next page. */
export async function toastHeader(toast: ToastInput) {
  const { toastStorage } = getCookies();
  const session = await toastStorage.getSession();
  session.flash(KEY, ToastSchema.parse(toast));
  return toastStorage.commitSession(session);
}

/** Redirect and show a toast on arrival, with or without JavaScript. */
export async function redirectWithToast(url: string, toast: ToastInput, init?: ResponseInit) {
  const headers = new Headers(init?.headers);
  headers.append("Set-Cookie", await toastHeader(toast));
  return redirect(url, { ...init, headers });
}

/** Read and clear the pending toast. */
export async function readToast(request: Request) {
  const { toastStorage } = getCookies();
  const session = await toastStorage.getSession(request.headers.get("Cookie"));
  const parsed = ToastSchema.safeParse(session.get(KEY));
  return {
    toast: parsed.success ? parsed.data : null,
    headers: parsed.success ? { "Set-Cookie": await toastStorage.destroySession(session) } : null,
  };
}
