import { useEffect, useState } from "react";
import { useRevalidator } from "@remix-run/react";
import { PostForm, AlertPill, Button, Modal } from "~/components/shell";
import { STATUS_LABELS } from "~/utils/integrations";

type Status = keyof typeof STATUS_LABELS;
const TONES: Record<Status, "success" | "warning" | "error" | "neutral"> = {
  connected: "success",
  syncing: "neutral",
  error: "error",
  not_connected: "warning",
  disconnected: "neutral",
};

export function StatusPill({ status }: { status: Status }) {
  return (
    <AlertPill tone={TONES[status]} className="whitespace-nowrap">
      {STATUS_LABELS[status]}
    </AlertPill>
  );
}

/** While something is running, re-read the page's data every 2 s (JavaScript only; without it the page offers a refresh link). */
export function useAutoRefresh(active: boolean, everyMs = 2000) {
  const { revalidate, state } = useRevalidator();
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => {
      if (state === "idle" && document.visibilityState === "visible") revalidate();
    }, everyMs);
    return () => clearInterval(timer);
  }, [active, everyMs, revalidate, state]);
}

/**
 * Disconnect with a confirmation. With JavaScript: a modal on this page. Without: a link to the
 * confirmation page (the modal's form posts to the same action).
 */
export function DisconnectControl({ id, name, hydrated, sub = false }: { id: string; name: string; hydrated: boolean; sub?: boolean }) {
  const [open, setOpen] = useState(false);
  const action = `/connect-database/${id}/disconnect${sub ? "?sub=1" : ""}`;
  if (!hydrated) {
    return (
      <a href={action} className="text-sm font-semibold text-red-700 hover:underline" aria-label={`Disconnect ${name}`}>
        Disconnect
      </a>
    );
  }
  return (
    <>
      <button
        type="button"
        onClick={() => setOpen(true)}
        className="text-sm font-semibold text-red-700 hover:underline"
        aria-label={`Disconnect ${name}`}
      >
        Disconnect
      </button>
      <Modal open={open} title={`Disconnect ${name}?`} onClose={() => setOpen(false)}>
        <DisconnectForm action={action} onCancel={() => setOpen(false)} sub={sub} />
      </Modal>
    </>
  );
}

export function DisconnectForm({ action, onCancel, sub }: { action: string; onCancel?: () => void; sub?: boolean }) {
  return (
    <PostForm action={action} className="space-y-4 text-sm">
      <p>
        Remarket stops syncing {sub ? "this sub-connection" : "this connection and its sub-connections"} and forgets the saved credentials.
        Imported customers and policies stay unless you tick the box.
      </p>
      <label className="flex items-center gap-2">
        <input type="checkbox" name="deleteData" value="on" />
        Also delete imported data
      </label>
      <div className="flex justify-end gap-2">
        {onCancel ? (
          <Button type="button" variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
        ) : null}
        <Button type="submit" variant="danger" name="intent" value="disconnect">
          Disconnect
        </Button>
      </div>
    </PostForm>
  );
}
