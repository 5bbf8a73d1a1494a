import { z } from "zod";
import {
  addTenantCarrier,
  assignNumbers,
  CATALOGUE_SORT,
  carriersForPolicy,
  getTenantCarrier,
  listCatalogue,
  listTenantCarriers,
  pageCatalogue,
  pageTenantCarriers,
  saveCredentials,
  setCredentialsInvalid,
  statesForLine,
  tenantCarrierByCarrier,
  TENANT_CARRIER_SORT,
} from "~/services/connections/carriers.server";
import { defineOperation } from "~/utils/api.server";
import { CarrierCredentialsFields, CarrierNumbersFields } from "~/utils/carrier-schemas";
import { LINE_CODES } from "~/utils/renewals";
import { singleLineText } from "~/utils/schemas";
import { cursorQuery, LIST_LIMIT_DEFAULT, LIST_LIMIT_MAX } from "~/utils/cursor.server";

// Seed §7 carriers calls: the catalogue and the agency's carriers, as on /carriers.

const tag = "Carriers";
const line = z.enum(LINE_CODES, { error: `line is one of ${LINE_CODES.join(", ")}.` });
const state = singleLineText()
  .regex(/^[A-Z]{2}$/, "state is a two-letter state code.")
  .optional();
// Without limit or cursor a list answers whole, as the original did; data stays an array and
// nextCursor (null at the end) sits beside it.
const paged = `by name (or sort); limit (default ${LIST_LIMIT_DEFAULT}, at most ${LIST_LIMIT_MAX}) and cursor (nextCursor of the previous page) page it`;
const isPaged = (input: { limit?: number; cursor?: string }) => input.limit !== undefined || input.cursor !== undefined;

export const carriersCatalogue = defineOperation({
  method: "GET",
  path: "/api/carriers",
  tag,
  summary: `The carrier catalogue, optionally only carriers writing a line or in a state, ${paged}`,
  input: z.object({ line: line.optional(), state, q: singleLineText().max(120).optional(), sort: CATALOGUE_SORT.query, ...cursorQuery }),
  run: async (ctx, { limit, cursor, sort, ...filter }) => {
    if (!isPaged({ limit, cursor })) return { data: await listCatalogue(ctx, filter, sort), nextCursor: null };
    const { rows, nextCursor } = await pageCatalogue(ctx, filter, { limit, cursor, sort });
    return { data: rows, nextCursor };
  },
});

export const carriersTenantList = defineOperation({
  method: "GET",
  path: "/api/carriers/tenant/list",
  tag,
  summary: `The agency's carriers, with numbers and whether credentials are stored, ${paged}`,
  input: z.object({ sort: TENANT_CARRIER_SORT.query, ...cursorQuery }),
  run: async (ctx, input) => {
    if (!isPaged(input)) return { data: await listTenantCarriers(ctx, {}, input.sort), nextCursor: null };
    const { rows, nextCursor } = await pageTenantCarriers(ctx, {}, input);
    return { data: rows, nextCursor };
  },
});

export const carriersInvalidCreds = defineOperation({
  method: "GET",
  path: "/api/carriers/tenant/invalid-creds",
  tag,
  summary: `The agency's carriers whose portal credentials failed, ${paged}`,
  input: z.object({ sort: TENANT_CARRIER_SORT.query, ...cursorQuery }),
  run: async (ctx, input) => {
    if (!isPaged(input)) return { data: await listTenantCarriers(ctx, { invalidOnly: true }, input.sort), nextCursor: null };
    const { rows, nextCursor } = await pageTenantCarriers(ctx, { invalidOnly: true }, input);
    return { data: rows, nextCursor };
  },
});

export const carriersAddCarrier = defineOperation({
  idempotent: true,
  method: "POST",
  path: "/api/carriers/tenant/add-carrier",
  tag,
  summary: "Add a catalogue carrier to the agency",
  input: z.object({ carrierId: z.string({ error: "carrierId is required." }) }),
  status: 201,
  run: async (ctx, input) => ({ data: await addTenantCarrier(ctx, input.carrierId) }),
});

export const carriersTenantCarrier = defineOperation({
  method: "GET",
  path: "/api/carriers/tenant-carrier",
  tag,
  summary: "One of the agency's carriers (id in the query)",
  input: z.object({ id: z.string({ error: "id is required." }) }),
  run: async (ctx, input) => ({ data: await getTenantCarrier(ctx, input.id) }),
});

export const carriersTenantCarrierCredentials = defineOperation({
  method: "POST",
  path: "/api/carriers/tenant-carrier",
  tag,
  summary: "Store portal credentials for one of the agency's carriers (the password sealed; none keeps it)",
  input: z.object({ id: z.string({ error: "id is required." }), ...CarrierCredentialsFields }),
  run: async (ctx, { id, ...input }) => {
    await saveCredentials(ctx, id, input);
    return { data: await getTenantCarrier(ctx, id) };
  },
});

export const carriersMarkInvalid = defineOperation({
  method: "POST",
  path: "/api/carriers/tenant/invalid-creds",
  tag,
  summary: "Flag (or clear) a carrier's portal credentials as failed",
  input: z.object({ id: z.string({ error: "id is required." }), invalid: z.boolean({ error: "invalid must be true or false." }) }),
  run: async (ctx, input) => {
    await setCredentialsInvalid(ctx, input.id, input.invalid);
    return { data: await getTenantCarrier(ctx, input.id) };
  },
});

export const carriersLobStates = defineOperation({
  method: "GET",
  path: "/api/carriers/lob/states",
  tag,
  summary: "States where catalogue carriers write a line of business",
  input: z.object({ line }),
  run: async (ctx, input) => ({ data: await statesForLine(ctx, input.line) }),
});

export const carriersLobList = defineOperation({
  method: "GET",
  path: "/api/carriers/lob/list",
  tag,
  summary: "Lines of business (codes)",
  auth: "bearer",
  response: z.object({ data: z.array(z.string()) }),
  run: async () => ({ data: [...LINE_CODES] }),
});

export const carriersListByPolicy = defineOperation({
  method: "GET",
  path: "/api/carriers/list-by-policy",
  tag,
  summary: "Carriers writing a policy's line in its state, the agency's own first",
  input: z.object({ policyId: z.string({ error: "policyId is required." }) }),
  run: async (ctx, input) => ({ data: await carriersForPolicy(ctx, input.policyId) }),
});

export const carriersByCarrier = defineOperation({
  method: "GET",
  path: "/api/carriers/tenant-carrier-by-carrier",
  tag,
  summary: "The agency's entry for a catalogue carrier",
  input: z.object({ carrierId: z.string({ error: "carrierId is required." }) }),
  run: async (ctx, input) => ({ data: await tenantCarrierByCarrier(ctx, input.carrierId) }),
});

export const carriersAssignNumbers = defineOperation({
  method: "POST",
  path: "/api/carriers/tenant/assign-numbers",
  tag,
  summary: "Agency and producer numbers with one of the agency's carriers",
  input: z.object({ id: z.string({ error: "id is required." }), ...CarrierNumbersFields }),
  run: async (ctx, { id, ...numbers }) => {
    await assignNumbers(ctx, id, numbers);
    return { data: await getTenantCarrier(ctx, id) };
  },
});
