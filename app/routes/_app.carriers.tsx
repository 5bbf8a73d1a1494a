import { getFormProps, getInputProps, useServerForm } from "~/components/server-form";
import { parseWithZod } from "@conform-to/zod/v4";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { PostForm, resultFor, useFormId, AlertPill, Notice, Button } from "~/components/shell";
import { Card, FilterSelect, inputClass, rowClass, tableClass, theadClass } from "~/components/renewals-ui";
import { ErrorList } from "~/components/ui/field";
import {
  addTenantCarrier,
  assignNumbers,
  bookCarriersNotAdded,
  listCatalogue,
  listTenantCarriers,
  removeTenantCarrier,
  saveCredentials,
  setCredentialsInvalid,
} from "~/services/connections/carriers.server";
import { mergeCarriers } from "~/services/connections/carrier-merge.server";
import { requireTenantContext } from "~/utils/auth.server";
import { formatDateTime, formatList, formatNumber } from "~/utils/format";
import { applyFormOnce } from "~/utils/forms.server";
import { CarrierCredentialsFields, CarrierNumbersFields } from "~/utils/carrier-schemas";
import { LINE_CODES as LINES_OF_BUSINESS } from "~/utils/renewals";
import { replyInvalid, replyWithServiceError } from "~/utils/submission.server";
import { redirectWithToast } from "~/utils/toast.server";

export const meta: MetaFunction = () => [{ title: "Carriers | Remarket" }];

export const handle = { description: "The carriers your agency writes with, and the catalogue to add more." };

const STATES = [
  "AL",
  "AK",
  "AZ",
  "AR",
  "CA",
  "CO",
  "CT",
  "DE",
  "DC",
  "FL",
  "GA",
  "HI",
  "ID",
  "IL",
  "IN",
  "IA",
  "KS",
  "KY",
  "LA",
  "ME",
  "MD",
  "MA",
  "MI",
  "MN",
  "MS",
  "MO",
  "MT",
  "NE",
  "NV",
  "NH",
  "NJ",
  "NM",
  "NY",
  "NC",
  "ND",
  "OH",
  "OK",
  "OR",
  "PA",
  "RI",
  "SC",
  "SD",
  "TN",
  "TX",
  "UT",
  "VT",
  "VA",
  "WA",
  "WV",
  "WI",
  "WY",
];

const ActionSchema = z.discriminatedUnion("intent", [
  z.object({ intent: z.literal("add"), carrierId: z.string().uuid() }),
  z.object({ intent: z.literal("remove"), id: z.string().uuid() }),
  z.object({ intent: z.literal("numbers"), id: z.string().uuid(), ...CarrierNumbersFields }),
  z.object({
    intent: z.literal("credentials"),
    id: z.string().uuid(),
    ...CarrierCredentialsFields,
  }),
  z.object({ intent: z.literal("invalid"), id: z.string().uuid(), value: z.enum(["true", "false"]) }),
  z.object({
    intent: z.literal("merge"),
    fromId: z.string({ error: "Choose the carrier to merge." }).uuid("Choose the carrier to merge."),
    intoId: z.string({ error: "Choose the carrier to keep." }).uuid("Choose the carrier to keep."),
  }),
]);

export async function loader({ request, context }: LoaderFunctionArgs) {
  const ctx = await requireTenantContext(request, context);
  const url = new URL(request.url);
  const line = z
    .enum(LINES_OF_BUSINESS)
    .optional()
    .catch(undefined)
    .parse(url.searchParams.get("line") || undefined);
  const state = z
    .enum(STATES as [string, ...string[]])
    .optional()
    .catch(undefined)
    .parse(url.searchParams.get("state") || undefined);
  const invalidOnly = url.searchParams.get("invalid") === "1";
  const [mine, catalogue, notAdded] = await Promise.all([
    listTenantCarriers(ctx, { invalidOnly }),
    listCatalogue(ctx, { line, state }),
    bookCarriersNotAdded(ctx),
  ]);
  return {
    mine,
    catalogue,
    inBook: notAdded.map((c) => c.id),
    notAdded: notAdded.length
      ? { names: formatList(notAdded.map((c) => c.name)), countedAt: formatDateTime(notAdded[0].countedAt, ctx.auth.tenant.timeZone) }
      : null,
    line: line ?? "",
    state: state ?? "",
    invalidOnly,
    isAdmin: ctx.role === "admin",
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const ctx = await requireTenantContext(request, context);
  const formData = await request.formData();
  const submission = parseWithZod(formData, { schema: ActionSchema });
  const url = new URL(request.url);
  const back = `${url.pathname}${url.search}`;
  if (submission.status !== "success") {
    // The carrier's id travels in a hidden field: a malformed one is a carrier that is not there.
    if (["id", "carrierId", "intent"].some((name) => submission.error?.[name])) throw new Response("Not found", { status: 404 });
    return replyInvalid(submission, ["password"]);
  }
  const input = submission.value;
  try {
    return await applyFormOnce(request, formData, async () => {
      switch (input.intent) {
        case "add": {
          const added = await addTenantCarrier(ctx, input.carrierId);
          return redirectWithToast(back, { type: "success", message: `${added.name} added to your carriers.` });
        }
        case "remove": {
          const removed = await removeTenantCarrier(ctx, input.id);
          return redirectWithToast(back, { type: "success", message: `${removed.name} removed from your carriers.` });
        }
        case "numbers": {
          const row = await assignNumbers(ctx, input.id, input);
          return redirectWithToast(back, { type: "success", message: `Numbers saved for ${row.name}.` });
        }
        case "credentials": {
          const row = await saveCredentials(ctx, input.id, input);
          return redirectWithToast(back, { type: "success", message: `Portal credentials saved for ${row.name} (stored encrypted).` });
        }
        case "merge": {
          const merged = await mergeCarriers(ctx, input);
          return redirectWithToast(back, {
            type: "success",
            message: `${merged.from} merged into ${merged.into}: ${merged.policies === 1 ? "1 policy" : `${merged.policies} policies`} moved.`,
          });
        }
        case "invalid": {
          const row = await setCredentialsInvalid(ctx, input.id, input.value === "true");
          return redirectWithToast(back, {
            type: "success",
            message: input.value === "true" ? `${row.name}: credentials marked invalid.` : `${row.name}: credentials marked valid.`,
          });
        }
      }
    });
  } catch (error) {
    return replyWithServiceError(submission, error, ["password"]);
  }
}

export default function CarriersPage() {
  const { mine, catalogue, inBook, notAdded, line, state, invalidOnly, isAdmin } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  // What is not about one field (a refusal of the service) is said above the tables.
  const formErrors = lastResult?.error?.[""] ?? null;
  return (
    <div className="space-y-6">
      <div>
        <h1 className="text-2xl font-bold">Carriers</h1>
        <p className="text-sm text-slate-600 dark:text-slate-300">
          Your appointments, agency and producer numbers, portal credentials, and who writes what where.
        </p>
      </div>
      {formErrors ? <Notice tone="error">{formErrors.join(" ")}</Notice> : null}

      <Card
        title="Your carriers"
        actions={
          <Link to={invalidOnly ? "/carriers" : "/carriers?invalid=1"} className="text-sm text-brand-600 hover:underline">
            {invalidOnly ? "Show all" : "Only invalid credentials"}
          </Link>
        }
      >
        <div className="overflow-x-auto">
          <table className={`${tableClass} stack-table`} data-testid="my-carriers">
            <thead className={theadClass}>
              <tr>
                <th className="py-2 pr-3">Carrier</th>
                <th className="pr-3">Agency / producer no.</th>
                <th className="pr-3">Portal</th>
                <th className="pr-3">
                  <span className="sr-only">Edit</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {mine.length === 0 ? (
                <tr>
                  <td colSpan={4} className="py-4 text-center text-slate-500">
                    {invalidOnly
                      ? "No carrier has invalid credentials."
                      : "Add the carriers you are appointed with from the catalogue below."}
                  </td>
                </tr>
              ) : null}
              {mine.map((c) => (
                <tr key={c.id} className={rowClass} data-testid="my-carrier">
                  <td className="py-2 pr-3">
                    <div className="font-medium">{c.name}</div>
                    <div className="text-xs text-slate-500">{c.lines.join(", ")}</div>
                  </td>
                  <td className="pr-3 text-xs" data-label="Agency / producer no.">
                    {c.agencyCode ?? "—"} / {c.producerCode ?? "—"}
                  </td>
                  <td className="pr-3 text-xs" data-label="Portal">
                    <div>
                      {c.portalUsername ? (
                        <>
                          {c.portalUsername} {c.hasSecret ? "· password stored" : ""}{" "}
                          {c.credentialsInvalid ? (
                            <AlertPill tone="error">Invalid credentials</AlertPill>
                          ) : (
                            <AlertPill tone="success">Valid</AlertPill>
                          )}
                        </>
                      ) : (
                        <span className="text-slate-500">No credentials</span>
                      )}
                    </div>
                  </td>
                  <td className="pr-3">
                    <CarrierEditor carrier={c} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Card>

      {isAdmin && mine.length > 1 ? (
        <Card title="Merge two carriers">
          <MergeForm />
        </Card>
      ) : null}

      <Card title="Carrier catalogue">
        {notAdded ? (
          <div className="mb-3" data-testid="book-carriers">
            <Notice tone="warning">
              Your book has active policies with {notAdded.names}, not among your carriers yet (as found by the forecast of{" "}
              {notAdded.countedAt}, which runs after every import). Add them to keep their codes and portal logins here.
            </Notice>
          </div>
        ) : null}
        <Form method="get" className="mb-3 flex flex-wrap items-end gap-3" aria-label="Who writes what where">
          <FilterSelect
            name="line"
            label="Writes line"
            value={line}
            all="Any line"
            options={LINES_OF_BUSINESS.map((l) => ({ value: l, label: l }))}
          />
          <FilterSelect name="state" label="In state" value={state} all="Any state" options={STATES.map((s) => ({ value: s, label: s }))} />
          <Button type="submit" variant="secondary">
            Find carriers
          </Button>
        </Form>
        <div className="overflow-x-auto">
          <table className={tableClass} data-testid="catalogue">
            <thead className={theadClass}>
              <tr>
                <th className="py-2 pr-3">Carrier</th>
                <th className="pr-3">Lines of business</th>
                <th className="pr-3 text-right">States</th>
                <th className="pr-3">
                  <span className="sr-only">Add</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {catalogue.map((c) => (
                <tr key={c.id} className={rowClass}>
                  <td className="py-2 pr-3 font-medium">
                    {c.name}
                    {!c.tenantCarrierId && inBook.includes(c.id) ? (
                      <AlertPill tone="warning" className="ml-2">
                        In your book
                      </AlertPill>
                    ) : null}
                  </td>
                  <td className="pr-3 text-xs">{c.lines.join(", ")}</td>
                  <td className="pr-3 text-right">{formatNumber(c.states)}</td>
                  <td className="pr-3">
                    {c.tenantCarrierId ? (
                      <AlertPill tone="success">Yours</AlertPill>
                    ) : (
                      <PostForm>
                        <input type="hidden" name="carrierId" value={c.id} />
                        <Button type="submit" name="intent" value="add" variant="secondary" aria-label={`Add ${c.name}`}>
                          Add
                        </Button>
                      </PostForm>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </Card>
    </div>
  );
}

type MyCarrier = ReturnType<typeof useLoaderData<typeof loader>>["mine"][number];

/** A carrier's numbers, portal credentials, validity and removal; open again when the action answered one of its forms. */
function CarrierEditor({ carrier: c }: { carrier: MyCarrier }) {
  const lastResult = useActionData<typeof action>();
  const [numbers, numberFields] = useServerForm({
    id: useFormId(`numbers-${c.id}`, lastResult),
    lastResult: resultFor(lastResult, { id: c.id, intent: "numbers" }),
    defaultValue: { agencyCode: c.agencyCode ?? "", producerCode: c.producerCode ?? "" },
  });
  const [credentials, credentialFields] = useServerForm({
    id: useFormId(`credentials-${c.id}`, lastResult),
    lastResult: resultFor(lastResult, { id: c.id, intent: "credentials" }),
    defaultValue: { username: c.portalUsername ?? "", password: "" },
  });
  return (
    <details open={resultFor(lastResult, { id: c.id }) !== undefined}>
      <summary className="cursor-pointer whitespace-nowrap text-sm text-brand-600">Edit</summary>
      <div className="mt-2 grid min-w-[18rem] gap-3">
        <PostForm {...getFormProps(numbers)} className="grid grid-cols-2 gap-2" aria-label={`Numbers for ${c.name}`}>
          <input type="hidden" name="id" value={c.id} />
          <label className="text-xs">
            Agency no.
            <input {...getInputProps(numberFields.agencyCode, { type: "text" })} className={inputClass} />
            <ErrorList id={numberFields.agencyCode.errorId} errors={numberFields.agencyCode.errors} />
          </label>
          <label className="text-xs">
            Producer no.
            <input {...getInputProps(numberFields.producerCode, { type: "text" })} className={inputClass} />
            <ErrorList id={numberFields.producerCode.errorId} errors={numberFields.producerCode.errors} />
          </label>
          <Button type="submit" name="intent" value="numbers" variant="secondary" className="col-span-2">
            Save numbers
          </Button>
        </PostForm>
        <PostForm {...getFormProps(credentials)} className="grid grid-cols-2 gap-2" aria-label={`Portal credentials for ${c.name}`}>
          <input type="hidden" name="id" value={c.id} />
          <label className="text-xs">
            Portal username
            <input {...getInputProps(credentialFields.username, { type: "text" })} autoComplete="off" className={inputClass} />
            <ErrorList id={credentialFields.username.errorId} errors={credentialFields.username.errors} />
          </label>
          <label className="text-xs">
            Password {c.hasSecret ? "(blank: keep)" : ""}
            <input {...getInputProps(credentialFields.password, { type: "password" })} autoComplete="new-password" className={inputClass} />
            <ErrorList id={credentialFields.password.errorId} errors={credentialFields.password.errors} />
          </label>
          <Button type="submit" name="intent" value="credentials" variant="secondary" className="col-span-2">
            Save credentials
          </Button>
        </PostForm>
        <div className="flex gap-2">
          <PostForm>
            <input type="hidden" name="id" value={c.id} />
            <input type="hidden" name="value" value={c.credentialsInvalid ? "false" : "true"} />
            <Button type="submit" name="intent" value="invalid" variant="ghost">
              {c.credentialsInvalid ? "Mark credentials valid" : "Mark credentials invalid"}
            </Button>
          </PostForm>
          <PostForm>
            <input type="hidden" name="id" value={c.id} />
            <Button type="submit" name="intent" value="remove" variant="danger" aria-label={`Remove ${c.name}`}>
              Remove
            </Button>
          </PostForm>
        </div>
      </div>
    </details>
  );
}

/**
 * Two of the agency's carriers that are one company (an import's "KFM Insurance" and the
 * catalogue's name): everything of the first moves to the second. Admins only.
 */
function MergeForm() {
  const { mine } = useLoaderData<typeof loader>();
  const lastResult = resultFor(useActionData<typeof action>(), { intent: "merge" });
  const [form, fields] = useServerForm({ id: useFormId("merge-carriers", lastResult), lastResult });
  return (
    <PostForm {...getFormProps(form)} className="flex flex-wrap items-end gap-3" aria-label="Merge two carriers">
      <label className="block text-sm">
        <span className="font-medium">Merge</span>
        <select
          name={fields.fromId.name}
          defaultValue=""
          className={`${inputClass} mt-1`}
          aria-invalid={fields.fromId.errors ? true : undefined}
        >
          <option value="">Choose a carrier…</option>
          {mine.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
        <ErrorList id={fields.fromId.errorId} errors={fields.fromId.errors} />
      </label>
      <label className="block text-sm">
        <span className="font-medium">into</span>
        <select
          name={fields.intoId.name}
          defaultValue=""
          className={`${inputClass} mt-1`}
          aria-invalid={fields.intoId.errors ? true : undefined}
        >
          <option value="">Choose the carrier to keep…</option>
          {mine.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </select>
        <ErrorList id={fields.intoId.errorId} errors={fields.intoId.errors} />
      </label>
      <Button type="submit" name="intent" value="merge" variant="secondary">
        Merge carriers
      </Button>
      <p className="basis-full text-xs text-slate-600 dark:text-slate-300">
        Policies, quotes and re-market outcomes of the first carrier move to the second; its agency and producer numbers fill the second's
        blanks. This cannot be undone.
      </p>
    </PostForm>
  );
}

export { RouteErrorBoundary as ErrorBoundary } from "~/components/shell";
