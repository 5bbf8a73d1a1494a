import { z } from "zod";
import { singleLineText } from "./schemas";

// A carrier's agency numbers and portal credentials, checked the same way by /carriers and the API.

const code = singleLineText().max(40, "Keep codes under 40 characters.").optional();

/** Agency and producer numbers with a carrier (seed carriers/tenant/assign-numbers). */
export const CarrierNumbersFields = { agencyCode: code, producerCode: code };

/** Portal credentials; no password keeps the stored one. */
export const CarrierCredentialsFields = {
  username: singleLineText({ error: "Enter the portal username." }).min(1, "Enter the portal username.").max(120),
  password: z.string().max(200).optional(),
};
