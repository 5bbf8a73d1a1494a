import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { getConnection, getConnectionState, saveConnectionState } from "~/services/connections.server";
import { requireAdmin } from "~/utils/auth.server";
import { orNotFound } from "~/utils/wizard.server";

// Seed connections/state/get and connections/state/save: the wizard's saved step and drafts.

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const ctx = await requireAdmin(request, context);
  return orNotFound(getConnectionState(ctx, params.connectionId!));
}

const SaveSchema = z.object({ key: z.string().regex(/^[a-z]{1,20}$/), draft: z.unknown() });

export async function action({ request, params, context }: ActionFunctionArgs) {
  const ctx = await requireAdmin(request, context);
  const connection = await orNotFound(getConnection(ctx, params.connectionId));
  const parsed = SaveSchema.safeParse(await request.json().catch(() => null));
  if (!parsed.success) throw new Response("Bad request", { status: 400 });
  if (JSON.stringify(parsed.data.draft ?? null).length > 200_000) throw new Response("Draft too large", { status: 413 });
  await saveConnectionState(ctx, connection, parsed.data.key, parsed.data.draft ?? null);
  return { saved: true };
}
