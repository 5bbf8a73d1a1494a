import { useTimeZone } from "~/utils/use-time-zone";
import { getFormProps, getInputProps, getSelectProps, getTextareaProps, useServerForm } from "~/components/server-form";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, AppLoadContext, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { z } from "zod";
import { PostForm, resultFor, AlertPill, Notice, Button } from "~/components/shell";
import { Card, inputClass, rowClass, tableClass, theadClass } from "~/components/renewals-ui";
import { ErrorList } from "~/components/ui/field";
import { carriersForPolicy } from "~/services/connections/carriers.server";
import { isServiceError } from "~/services/platform/errors.server";
import { getRemarket, markLost, recordIncumbentOffer, saveQuote, selectQuote } from "~/services/renewals/quotes.server";
import { describeDifference, describeSaving, SAVINGS_BASIS_LABELS } from "~/services/renewals/savings";
import { requireTenantContext } from "~/utils/auth.server";
import { formatDate, formatMoney, possessive } from "~/utils/format";
import { applyFormOnce } from "~/utils/forms.server";
import { OUTCOME_LABELS, describePrediction } from "~/utils/renewals";
import { replyInvalid, replyWithServiceError } from "~/utils/submission.server";
import { redirectWithToast } from "~/utils/toast.server";
import { moneyField } from "~/utils/money-input";
import { QuoteFields, quoteNamesCarrier } from "~/utils/quote-schemas";

export const meta: MetaFunction<typeof loader> = ({ data }) => [{ title: `Quotes ${data?.remarket.policyNumber ?? ""} | Remarket` }];

const QuoteSchema = quoteNamesCarrier(z.object({ intent: z.literal("save"), ...QuoteFields }));

const OfferSchema = z.object({ intent: z.literal("offer"), incumbentOffer: moneyField("Renewal offer", { optional: true }) });

const ActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("select"), quoteId: z.string() }),
  z.object({ intent: z.literal("lost") }),
  OfferSchema,
  QuoteSchema,
]);

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
  const submission = parseWithZod(formData, { schema: ActionSchema });
  if (submission.status !== "success") return replyInvalid(submission);
  const input = submission.value;
  const here = `/quotes/${remarket.id}`;
  // Only this re-market's own quotes can be selected or edited here.
  const quoteId = "quoteId" in input ? input.quoteId : undefined;
  if (quoteId && !remarket.quotes.some((q) => q.id === quoteId)) throw new Response("Quote not found", { status: 404 });
  try {
    return await applyFormOnce(request, formData, async () => {
      if (input.intent === "select") {
        const result = await selectQuote(ctx, input.quoteId);
        const saving = describeSaving(result.premiumSaved, result.savingsBasis);
        return redirectWithToast(here, {
          type: "success",
          title: "Quote selected",
          message: `${OUTCOME_LABELS[result.outcome]}.${saving ? ` ${saving}.` : ""}`,
        });
      }
      if (input.intent === "offer") {
        await recordIncumbentOffer(ctx, remarket.id, input.incumbentOffer);
        return redirectWithToast(here, {
          type: "success",
          message:
            input.incumbentOffer === null ? "Renewal offer cleared." : `Renewal offer of ${formatMoney(input.incumbentOffer, 2)} recorded.`,
        });
      }
      if (input.intent === "lost") {
        await markLost(ctx, remarket.id);
        return redirectWithToast(here, { type: "success", title: "Closed as lost", message: "The re-market is closed as lost." });
      }
      await saveQuote(ctx, remarket.id, input);
      return redirectWithToast(here, { type: "success", message: input.quoteId ? "Quote updated." : "Quote added." });
    });
  } catch (error) {
    return replyWithServiceError(submission, error);
  }
}

export default function RemarketQuotesPage() {
  const timeZone = useTimeZone();
  const { remarket, editing } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  // Select and close-as-lost are buttons: what the service refuses is said above the table (the
  // quote form shows its own).
  const formErrors = !["save", "offer"].includes(String(lastResult?.initialValue?.intent)) ? (lastResult?.error?.[""] ?? null) : null;
  // Quotes are compared with what the customer would otherwise pay: the incumbent's offer when
  // known, else today's premium. Never with a prediction.
  const reference = remarket.incumbentOffer ?? remarket.premium;
  const referenceLabel = remarket.incumbentOffer !== null ? SAVINGS_BASIS_LABELS.offer : SAVINGS_BASIS_LABELS.current;
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
          <Link to={`/customers/${remarket.customerId}`} className="text-brand-600 underline">
            {remarket.customerName}
          </Link>{" "}
          · {remarket.lineOfBusiness}
          {remarket.riskState ? ` in ${remarket.riskState}` : ""} · with {remarket.incumbent}, current premium{" "}
          {remarket.premium !== null ? formatMoney(remarket.premium, 2) : "unknown"} · expires {formatDate(remarket.expirationDate)} ·
          re-marketed {formatDate(remarket.remarketedAt, timeZone)}
          {remarket.byName ? ` by ${remarket.byName}` : ""}
        </p>
        <p className="mt-2" data-testid="remarket-outcome">
          {remarket.outcome ? (
            <AlertPill tone={remarket.outcome === "lost" ? "error" : "success"}>
              {OUTCOME_LABELS[remarket.outcome]}
              {remarket.outcome !== "lost" && remarket.premiumSaved !== null
                ? ` · ${describeSaving(remarket.premiumSaved, remarket.savingsBasis)}`
                : ""}
            </AlertPill>
          ) : (
            <AlertPill tone="warning">Open: select a quote to close it</AlertPill>
          )}
        </p>
      </div>
      {formErrors ? <Notice tone="error">{formErrors[0]}</Notice> : null}

      <Card title={`${possessive(remarket.incumbent)} renewal offer`}>
        <OfferForm />
      </Card>

      <Card title="Quotes">
        <div className="overflow-x-auto">
          <table className={`${tableClass} stack-table`} data-testid="quotes">
            <thead className={theadClass}>
              <tr>
                <th className="py-2 pr-3">Carrier</th>
                <th className="pr-3 text-right">Premium</th>
                <th className="pr-3 text-right">{referenceLabel}</th>
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
                return (
                  <tr key={q.id} className={rowClass} data-testid="quote-row">
                    <td className="py-2 pr-3">
                      {q.carrierName} {q.selected ? <AlertPill tone="success">Selected</AlertPill> : null}
                    </td>
                    <td className="pr-3 text-right" data-label="Premium">
                      {formatMoney(q.premium, 2)}
                    </td>
                    <td className="pr-3 text-right" data-label={referenceLabel}>
                      {describeDifference(q.premium, reference)}
                    </td>
                    <td className="pr-3" data-label="Effective">
                      {formatDate(q.effectiveDate)}
                    </td>
                    <td className="max-w-xs pr-3 text-xs" data-label="Coverage notes">
                      {q.coverageNotes}
                    </td>
                    <td className="pr-3">
                      <div className="flex items-center gap-2">
                        <Link
                          to={`?edit=${q.id}`}
                          className="text-sm text-brand-600 hover:underline"
                          aria-label={`Edit quote from ${q.carrierName}`}
                        >
                          Edit
                        </Link>
                        {!q.selected ? (
                          <PostForm>
                            <input type="hidden" name="quoteId" value={q.id} />
                            <Button
                              type="submit"
                              name="intent"
                              value="select"
                              variant="secondary"
                              aria-label={`Select quote from ${q.carrierName}`}
                            >
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
        </div>
        {remarket.outcome !== "lost" ? (
          <PostForm className="mt-3">
            <Button type="submit" name="intent" value="lost" variant="ghost">
              Customer left: close as lost
            </Button>
          </PostForm>
        ) : null}
      </Card>

      <Card title={editing ? `Edit the quote from ${editing.carrierName}` : "Add a quote"}>
        <QuoteForm key={editing?.id ?? `new-${remarket.quotes.length}`} />
      </Card>
    </div>
  );
}

/**
 * The incumbent's actual renewal offer, typed (or imported with the policy): the basis of the
 * premium saved when known. A blank field clears it.
 */
function OfferForm() {
  const { remarket } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const [form, fields] = useServerForm({
    id: "incumbent-offer",
    lastResult: resultFor(useActionData<typeof action>(), { intent: "offer" }),
    defaultValue: { incumbentOffer: remarket.incumbentOffer !== null ? String(remarket.incumbentOffer) : "" },
  });
  return (
    <PostForm {...getFormProps(form)} className="flex flex-wrap items-end gap-3" aria-label="Incumbent's renewal offer">
      <label className="block text-sm">
        <span className="font-medium">Renewal offer ($)</span>
        <input {...getInputProps(fields.incumbentOffer, { type: "text" })} inputMode="decimal" className={`${inputClass} mt-1`} />
        <ErrorList id={fields.incumbentOffer.errorId} errors={fields.incumbentOffer.errors} />
      </label>
      <Button type="submit" name="intent" value="offer" variant="secondary" pending={navigation.formData?.get("intent") === "offer"}>
        Save offer
      </Button>
      {remarket.predicted && remarket.forecastRenewalPremium !== null ? (
        <p className="basis-full text-xs text-slate-600 dark:text-slate-300" data-testid="predicted-renewal">
          Predicted renewal {formatMoney(remarket.forecastRenewalPremium)} (predicted, not an offer:{" "}
          {describePrediction(remarket).replace(/^Predicted:? /, "")}). Premium saved is never measured against it.
        </p>
      ) : null}
      <p className="basis-full text-xs text-slate-600 dark:text-slate-300" data-testid="savings-basis">
        {remarket.incumbentOffer !== null
          ? `Premium saved is measured against this offer of ${formatMoney(remarket.incumbentOffer, 2)}.`
          : "No offer recorded: premium saved is measured against the current premium."}
      </p>
    </PostForm>
  );
}

/** Add a quote, or edit the one in `?edit=`; a refused save shows its messages by the fields and keeps what was typed. */
function QuoteForm() {
  const { remarket, choices, editing } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const [form, fields] = useServerForm({
    id: `quote-${editing?.id ?? "new"}`,
    lastResult: resultFor(useActionData<typeof action>(), { intent: "save" }),
    defaultValue: {
      carrierId: editing?.carrierId ?? "",
      carrierName: editing && !editing.carrierId ? editing.carrierName : "",
      premium: editing ? String(editing.premium) : "",
      effectiveDate: editing?.effectiveDate ?? remarket.expirationDate,
      coverageNotes: editing?.coverageNotes ?? "",
    },
  });
  const agency = choices.carriers.filter((c) => c.agency);
  const others = choices.carriers.filter((c) => !c.agency);
  return (
    <PostForm {...getFormProps(form)} className="grid gap-3 sm:grid-cols-2" aria-label={editing ? "Edit quote" : "Add quote"}>
      {editing ? <input type="hidden" name="quoteId" value={editing.id} /> : null}
      {form.errors ? (
        <div className="sm:col-span-2">
          <ErrorList id={form.errorId} errors={form.errors} />
        </div>
      ) : null}
      <label className="block text-sm">
        <span className="font-medium">Carrier</span>
        <select {...getSelectProps(fields.carrierId)} className={`${inputClass} mt-1`}>
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
        <ErrorList id={fields.carrierId.errorId} errors={fields.carrierId.errors} />
      </label>
      <label className="block text-sm">
        <span className="font-medium">…or another carrier's name</span>
        <input {...getInputProps(fields.carrierName, { type: "text" })} className={`${inputClass} mt-1`} />
        <ErrorList id={fields.carrierName.errorId} errors={fields.carrierName.errors} />
      </label>
      <label className="block text-sm">
        <span className="font-medium">Premium ($)</span>
        {/* Text, not number: "6,480" and "$6,480.00" are how people write premiums. */}
        <input {...getInputProps(fields.premium, { type: "text" })} inputMode="decimal" className={`${inputClass} mt-1`} />
        <ErrorList id={fields.premium.errorId} errors={fields.premium.errors} />
      </label>
      <label className="block text-sm">
        <span className="font-medium">Effective date</span>
        <input {...getInputProps(fields.effectiveDate, { type: "date" })} className={`${inputClass} mt-1`} />
        <ErrorList id={fields.effectiveDate.errorId} errors={fields.effectiveDate.errors} />
      </label>
      <label className="block text-sm sm:col-span-2">
        <span className="font-medium">Coverage notes</span>
        <textarea {...getTextareaProps(fields.coverageNotes)} rows={2} className={`${inputClass} mt-1`} />
        <ErrorList id={fields.coverageNotes.errorId} errors={fields.coverageNotes.errors} />
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
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shell";
