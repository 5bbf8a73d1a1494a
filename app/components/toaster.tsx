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
      <Toaster position="top-right" closeButton richColors />
      {!hydrated && toast ? (
        // It stays until the next page without JavaScript, so it must never cover a control
        // (the user menu sits under it): it lets every click through.
        <div className="pointer-events-none fixed right-4 top-4 z-50 max-w-sm" data-testid="server-toast">
          <Notice tone={toast.type}>
            {toast.title ? <strong className="block">{toast.title}</strong> : null}
            {toast.message}
          </Notice>
        </div>
      ) : null}
    </>
  );
}
