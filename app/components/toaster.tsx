import { useEffect } from "react";
import { Toaster, toast as showToast } from "sonner";
import { Notice } from "~/components/ui/alert-pill";
import { useHydrated } from "~/utils/use-hydrated";

type ToastData = { id: string; type: "success" | "error"; title?: string; message: string; duration: number };

/**
 * Toasts from the flash cookie: sonner shows them once JavaScript runs; without JavaScript the
 * server-rendered notice below stands in, so a no-JS redirect still says what happened.
 */
export function ToastArea({ toast }: { toast: ToastData | null }) {
  const hydrated = useHydrated();
  useEffect(() => {
    if (!toast) return;
    const show = toast.type === "error" ? showToast.error : showToast.success;
    show(toast.title ?? toast.message, {
      id: toast.id,
      description: toast.title ? toast.message : undefined,
      duration: toast.duration,
    });
  }, [toast]);
  return (
    <>
      {/* Bottom right, away from the header's bell and user menu; at most three at a time, stacked
          behind one another until hovered, so a burst of results never becomes a wall. */}
      <Toaster position="bottom-right" visibleToasts={3} closeButton richColors />
      {!hydrated && toast ? (
        // It stays until the next page without JavaScript, so it must never cover a control: it
        // sits where sonner's toasts do, away from the header, and lets every click through.
        <div className="pointer-events-none fixed bottom-4 right-4 z-50 max-w-sm" data-testid="server-toast">
          <Notice tone={toast.type}>
            {toast.title ? <strong className="block">{toast.title}</strong> : null}
            {toast.message}
          </Notice>
        </div>
      ) : null}
    </>
  );
}
