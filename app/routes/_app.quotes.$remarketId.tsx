import { data, type ActionFunctionArgs, type AppLoadContext, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { format, parseISO } from "date-fns";
import { z } from "zod";
import { PostForm } from "~/components/forms";
import { Card, inputClass, rowClass, tableClass, theadClass } from "~/components/renewals-ui";
import { AlertPill, Notice } from "~/components/ui/alert-pill";
import { Button } from "~/components/ui/button";
import { carriersForPolicy } from "~/services/carriers.server";
import { isServiceError } from "~/services/errors.server";
import { getRemarket, markLost, saveQuote, selectQuote } from "~/services/quotes.server";
import { requireTenantContext } from "~/utils/auth.server";
import { formatMoney } from "~/utils/format";
import { applyFormOnce } from "~/utils/forms.server";
import { OUTCOME_LABELS } from "~/utils/renewals";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `Quotes ${data?.remarket.policyNumber ?? ""} | Remarket` }];

const QuoteSchema = z
  .object({
    quoteId: z.string().uuid().optional().or(z.literal("").transform(() => undefined)),
    carrierId: z.string().uuid().optional().or(z.literal("").transform(() => undefined)),
    carrierName: z.string().trim().max(120, "Keep the carrier name under 120 characters.").optional(),
    premium: z.coerce.number({ error: "Enter the quoted premium." }).positive("Enter the quoted premium.").max(10_000_000, "Enter a premium under $10,000,000."),
    effectiveDate: z.string({ error: "Enter the effective date." }).regex(/^\d{4}-\d{2}-\d{2}$/, "Enter the effective date."),
    coverageNotes: z.string().trim().max(2000, "Keep the notes under 2,000 characters.").optional(),
  })
  .refine((v) => v.carrierId || v.carrierName, { message: "Choose a carrier or type its name.", path: ["carrierId"] });

async function load(request: Request, context: AppLoadContext, remarketId: string) {
  const ctx = await requireTenantContext(request, context);
  try {
    return { ctx, remarket: await getRemarket(ctx, remarketId) };
  } catch (error) {
    if (isServiceError(error) && error.status === 404) throw new Response("Not found", { status: 404 });
    throw error;
  }
}

export async function loader({ request, params, context }: LoaderFunctionArgs) {
  const { ctx, remarket } = await load(request, context, params.remarketId ?? "");
  const choices = await carriersForPolicy(ctx, remarket.policyId);
  const editId = new URL(request.url).searchParams.get("edit");
  const editing = remarket.quotes.find((q) => q.id === editId) ?? null;
  return { remarket, choices, editing };
}

export async function action({ request, params, context }: ActionFunctionArgs) {
  const { ctx, remarket } = await load(request, context, params.remarketId ?? "");
  const formData = await request.formData();
  const intent = formData.get("intent");
  const here = `/quotes/${remarket.id}`;
  const values = Object.fromEntries([...formData].filter(([k]) => k !== "_formToken").map(([k, v]) => [k, String(v)]));
  try {
    if (intent === "select") {
      const quoteId = String(formData.get("quoteId") ?? "");
      if (!remarket.quotes.some((q) => q.id === quoteId)) throw new Response("Quote not found", { status: 404 });
      return await applyFormOnce(request, formData, async () => {
        const result = await selectQuote(ctx, quoteId);
        const saved = result.premiumSaved !== null ? ` Premium saved: ${formatMoney(result.premiumSaved)}.` : "";
        return redirectWithToast(here, { type: "success", title: "Quote selected", message: `${OUTCOME_LABELS[result.outcome]}.${saved}` });
      });
    }
    if (intent === "lost") {
      return await applyFormOnce(request, formData, async () => {
        await markLost(ctx, remarket.id);
        return redirectWithToast(here, { type: "success", title: "Closed as lost", message: "The re-market is closed as lost." });
      });
    }
    const parsed = QuoteSchema.safeParse(values);
    if (!parsed.success) return data({ errors: z.flattenError(parsed.error).fieldErrors as Record<string, string[]>, values }, { status: 400 });
    if (parsed.data.quoteId && !remarket.quotes.some((q) => q.id === parsed.data.quoteId)) throw new Response("Quote not found", { status: 404 });
    return await applyFormOnce(request, formData, async () => {
      await saveQuote(ctx, remarket.id, parsed.data);
      return redirectWithToast(here, { type: "success", message: parsed.data.quoteId ? "Quote updated." : "Quote added." });
    });
  } catch (error) {
    if (isServiceError(error)) {
      if (error.status === 404) throw new Response(error.message, { status: 404 });
      return data({ errors: { [error.field ?? "form"]: [error.message] } as Record<string, string[]>, values }, { status: error.status });
    }
    throw error;
  }
}

export default function RemarketQuotesPage() {
  const { remarket, choices, editing } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const navigation = useNavigation();
  const errors = actionData?.errors ?? {};
  const v = actionData?.values ?? {};
  const agency = choices.carriers.filter((c) => c.agency);
  const others = choices.carriers.filter((c) => !c.agency);
  const defaultCarrier = v.carrierId ?? editing?.carrierId ?? "";
  return (
    <div className="space-y-6">
      <div>
        <Link to="/quotes" className="text-sm text-brand-600 hover:underline">
          ← All quotes
        </Link>
        <h1 className="mt-1 text-2xl font-bold">
          Quotes for <span className="font-mono">{remarket.policyNumber}</span>
        </h1>
        <p className="text-sm text-slate-600 dark:text-slate-300">
          <Link to={`/customers/${remarket.customerId}`} className="text-brand-600 hover:underline">
            {remarket.customerName}
          </Link>{" "}
          · {remarket.lineOfBusiness}
          {remarket.riskState ? ` in ${remarket.riskState}` : ""} · with {remarket.incumbent}, renewal premium {formatMoney(remarket.baselinePremium)} · expires{" "}
          {format(parseISO(remarket.expirationDate), "d MMM yyyy")} · re-marketed {format(new Date(remarket.remarketedAt), "d MMM yyyy")}
          {remarket.byName ? ` by ${remarket.byName}` : ""}
        </p>
        <p className="mt-2" data-testid="remarket-outcome">
          {remarket.outcome ? (
            <AlertPill tone={remarket.outcome === "lost" ? "error" : "success"}>
              {OUTCOME_LABELS[remarket.outcome]}
              {remarket.premiumSaved !== null ? ` · premium saved ${formatMoney(remarket.premiumSaved)}` : ""}
            </AlertPill>
          ) : (
            <AlertPill tone="warning">Open: select a quote to close it</AlertPill>
          )}
        </p>
      </div>
      {errors.form ? <Notice tone="error">{errors.form[0]}</Notice> : null}

      <Card title="Quotes">
        <table className={tableClass} data-testid="quotes">
          <thead className={theadClass}>
            <tr>
              <th className="py-2 pr-3">Carrier</th>
              <th className="pr-3 text-right">Premium</th>
              <th className="pr-3 text-right">vs. renewal</th>
              <th className="pr-3">Effective</th>
              <th className="pr-3">Coverage notes</th>
              <th className="pr-3">
                <span className="sr-only">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {remarket.quotes.length === 0 ? (
              <tr>
                <td colSpan={6} className="py-4 text-center text-slate-500">
                  No quotes yet.
                </td>
              </tr>
            ) : null}
            {remarket.quotes.map((q) => {
              const diff = remarket.baselinePremium !== null ? q.premium - remarket.baselinePremium : null;
              return (
                <tr key={q.id} className={rowClass} data-testid="quote-row">
                  <td className="py-2 pr-3">
                    {q.carrierName} {q.selected ? <AlertPill tone="success">Selected</AlertPill> : null}
                  </td>
                  <td className="pr-3 text-right">{formatMoney(q.premium, 2)}</td>
                  <td className="pr-3 text-right">{diff === null ? "" : `${diff <= 0 ? "saves" : "costs"} ${formatMoney(Math.abs(diff))}`}</td>
                  <td className="pr-3">{format(parseISO(q.effectiveDate), "d MMM yyyy")}</td>
                  <td className="max-w-xs pr-3 text-xs">{q.coverageNotes}</td>
                  <td className="pr-3">
                    <div className="flex items-center gap-2">
                      <Link to={`?edit=${q.id}`} className="text-sm text-brand-600 hover:underline" aria-label={`Edit quote from ${q.carrierName}`}>
                        Edit
                      </Link>
                      {!q.selected ? (
                        <PostForm>
                          <input type="hidden" name="quoteId" value={q.id} />
                          <Button type="submit" name="intent" value="select" variant="secondary" aria-label={`Select quote from ${q.carrierName}`}>
                            Select
                          </Button>
                        </PostForm>
                      ) : null}
                    </div>
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        {remarket.outcome !== "lost" ? (
          <PostForm className="mt-3">
            <Button type="submit" name="intent" value="lost" variant="ghost">
              Customer left: close as lost
            </Button>
          </PostForm>
        ) : null}
      </Card>

      <Card title={editing ? `Edit the quote from ${editing.carrierName}` : "Add a quote"}>
        <PostForm key={editing?.id ?? `new-${remarket.quotes.length}`} className="grid gap-3 sm:grid-cols-2" aria-label={editing ? "Edit quote" : "Add quote"}>
          {editing ? <input type="hidden" name="quoteId" value={editing.id} /> : null}
          <label className="block text-sm">
            <span className="font-medium">Carrier</span>
            <select name="carrierId" defaultValue={defaultCarrier} className={`${inputClass} mt-1`} aria-invalid={errors.carrierId ? true : undefined}>
              <option value="">Choose a carrier…</option>
              {agency.length ? (
                <optgroup label="Your carriers">
                  {agency.map((c) => (
                    <option key={c.id} value={c.id}>
                      {c.name}
                    </option>
                  ))}
                </optgroup>
              ) : null}
              <optgroup label={`Other carriers writing ${choices.line}${choices.state ? ` in ${choices.state}` : ""}`}>
                {others.map((c) => (
                  <option key={c.id} value={c.id}>
                    {c.name}
                  </option>
                ))}
              </optgroup>
            </select>
            {errors.carrierId ? <span className="text-red-600">{errors.carrierId[0]}</span> : null}
          </label>
          <label className="block text-sm">
            <span className="font-medium">…or another carrier's name</span>
            <input name="carrierName" defaultValue={v.carrierName ?? (editing && !editing.carrierId ? editing.carrierName : "")} className={`${inputClass} mt-1`} />
          </label>
          <label className="block text-sm">
            <span className="font-medium">Premium ($)</span>
            <input type="number" step="0.01" min="0" name="premium" defaultValue={v.premium ?? editing?.premium ?? ""} className={`${inputClass} mt-1`} aria-invalid={errors.premium ? true : undefined} />
            {errors.premium ? <span className="text-red-600">{errors.premium[0]}</span> : null}
          </label>
          <label className="block text-sm">
            <span className="font-medium">Effective date</span>
            <input type="date" name="effectiveDate" defaultValue={v.effectiveDate ?? editing?.effectiveDate ?? remarket.expirationDate} className={`${inputClass} mt-1`} aria-invalid={errors.effectiveDate ? true : undefined} />
            {errors.effectiveDate ? <span className="text-red-600">{errors.effectiveDate[0]}</span> : null}
          </label>
          <label className="block text-sm sm:col-span-2">
            <span className="font-medium">Coverage notes</span>
            <textarea name="coverageNotes" rows={2} defaultValue={v.coverageNotes ?? editing?.coverageNotes ?? ""} className={`${inputClass} mt-1`} />
            {errors.coverageNotes ? <span className="text-red-600">{errors.coverageNotes[0]}</span> : null}
          </label>
          <div className="flex gap-2 sm:col-span-2">
            <Button type="submit" name="intent" value="save" pending={navigation.formData?.get("intent") === "save"}>
              {editing ? "Save quote" : "Add quote"}
            </Button>
            {editing ? (
              <Link to="." className="px-3 py-2 text-sm text-slate-600 hover:underline">
                Cancel
              </Link>
            ) : null}
          </div>
        </PostForm>
      </Card>
    </div>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/error-page";
