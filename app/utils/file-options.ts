import { z } from "zod";

// File constants shared by the schema, the services and the browser (no server code here).

/** Seed §3 processing statuses, in life-cycle order (Completed is the seed's alias of Ready). */
export const FILE_STATUSES = ["Uploaded", "Progress", "Processed", "Ready", "Failed"] as const;
export type FileStatus = (typeof FILE_STATUSES)[number];

/** The seed's per-domain files and configuration (files/domain, files/config). */
export const FILE_DOMAINS = ["customers", "policies", "carriers", "other"] as const;
export type FileDomain = (typeof FILE_DOMAINS)[number];

export const DOMAIN_LABELS: Record<FileDomain, string> = {
  customers: "Customers",
  policies: "Policies",
  carriers: "Carriers",
  other: "Other",
};

/** Seed §3 file type extensions. */
export const FILE_EXTENSIONS = ["csv", "xls", "xlsx", "pdf", "doc", "docx"] as const;
export type FileExtension = (typeof FILE_EXTENSIONS)[number];

/** Parse options per domain. */
export const DELIMITERS = ["auto", ",", ";", "\t", "|"] as const;
export const DATE_FORMATS = ["auto", "MM/dd/yyyy", "dd/MM/yyyy", "yyyy-MM-dd"] as const;
export const ENCODINGS = ["auto", "utf-8", "utf-16le", "windows-1252", "iso-8859-1"] as const;
export const DELIMITER_LABELS: Record<(typeof DELIMITERS)[number], string> = {
  auto: "Detect",
  ",": "Comma (,)",
  ";": "Semicolon (;)",
  "\t": "Tab",
  "|": "Pipe (|)",
};

/** One domain's parse options, validated in the browser and on the server. */
export const DomainConfigSchema = z.object({
  domain: z.enum(FILE_DOMAINS),
  delimiter: z.enum(DELIMITERS),
  headerRow: z.coerce
    .number()
    .int("Header row must be a whole number.")
    .min(0, "Header row must be 0 or more.")
    .max(1000, "Header row must be at most 1000."),
  dateFormat: z.enum(DATE_FORMATS),
  encoding: z.enum(ENCODINGS),
});
export type DomainConfig = z.infer<typeof DomainConfigSchema>;
