import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { z } from "zod";
import { getConnection, getConnectionState, saveConnectionState } from "~/services/connections/connections.server";
import { jsonRoute, parseInput, readJsonObject } from "~/utils/api.server";
import { requireAdmin } from "~/utils/auth.server";
import { problem } from "~/utils/problem.server";
import { cleanJson } from "~/utils/schemas";

// Seed connections/state/get and connections/state/save: the wizard's saved step and drafts.

export async function loader(args: LoaderFunctionArgs) {
  return jsonRoute(args, ["GET"], async () =>
    getConnectionState(await requireAdmin(args.request, args.context), args.params.connectionId!),
  );
}

const SaveSchema = z.object({
  key: z.string({ error: "key is required." }).regex(/^[a-z]{1,20}$/, "key is 1 to 20 lowercase letters."),
  draft: cleanJson(),
});

export async function action(args: ActionFunctionArgs) {
  return jsonRoute(args, ["POST"], async () => {
    const ctx = await requireAdmin(args.request, args.context);
    const connection = await getConnection(ctx, args.params.connectionId);
    const input = parseInput(SaveSchema, await readJsonObject(args.request));
    if (JSON.stringify(input.draft ?? null).length > 200_000) throw problem(413, "The draft is larger than 200 KB.");
    await saveConnectionState(ctx, connection, input.key, input.draft ?? null);
    return { saved: true };
  });
}
