import type { FileStatus } from "~/db/schema";
import { AlertPill } from "~/components/shell";

const tones: Record<FileStatus, "success" | "warning" | "error" | "neutral"> = {
  Uploaded: "neutral",
  Progress: "warning",
  Processed: "warning",
  Ready: "success",
  Failed: "error",
};

/** Seed §3 processing status as a pill (the word always says what the colour says). */
export function FileStatusPill({ status }: { status: FileStatus }) {
  return (
    <AlertPill tone={tones[status]} className="whitespace-nowrap">
      <span data-testid="file-status">{status}</span>
    </AlertPill>
  );
}
