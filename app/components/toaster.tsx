import type { CSSProperties } from "react";
import { Form, useNavigation } from "@remix-run/react";
import { useEffect, useRef } from "react";
import { Toaster, toast as showToast } from "sonner";
import { FormToken, Notice } from "~/components/shell";
import { useHydrated } from "~/utils/use-hydrated";

// sonner's rich colours through its own CSS variables, darker: its success green on its pale green
// is 4.25:1, under WCAG's 4.5:1 for text (axe color-contrast).
const READABLE_COLORS = { "--success-text": "hsl(140, 100%, 22%)", "--error-text": "hsl(360, 100%, 38%)" } as CSSProperties;

type ToastUndo = { action: string; label: string; fields: { name: string; value: string }[] };
type ToastData = { id: string; type: "success" | "error"; title?: string; message: string; duration: number; undo?: ToastUndo };

/**
 * Toasts from the flash cookie: sonner shows them once JavaScript runs; without JavaScript the
 * server-rendered notice below stands in, so a no-JS redirect still says what happened. After a
 * form submitted with JavaScript, focus moves to what came of it (see `useFocusResult`).
 */
export function ToastArea({ toast }: { toast: ToastData | null }) {
  const hydrated = useHydrated();
  useEffect(() => {
    if (!toast) return;
    const show = toast.type === "error" ? showToast.error : showToast.success;
    const body = toast.undo ? (
      <>
        {toast.message}
        <UndoForm undo={toast.undo} />
      </>
    ) : (
      toast.message
    );
    show(toast.title ?? toast.message, {
      id: toast.id,
      description: toast.title || toast.undo ? body : undefined,
      // One with an Undo stays until closed: sonner's timer runs on while the keyboard is in the
      // toast (only the pointer holds it), and focus moves there after the submission.
      duration: toast.undo ? Infinity : toast.duration,
    });
  }, [toast]);
  useFocusResult(toast?.id ?? null);
  return (
    <>
      {/* Bottom right, away from the header's bell and user menu; at most three at a time, stacked
          behind one another until hovered, so a burst of results never becomes a wall. */}
      <Toaster position="bottom-right" visibleToasts={3} closeButton richColors style={READABLE_COLORS} />
      {!hydrated && toast ? (
        // It stays until the next page without JavaScript, so it must never cover a control: it
        // sits where sonner's toasts do, away from the header, and lets every click through
        // (except on its own Undo button).
        <div className="pointer-events-none fixed bottom-4 right-4 z-50 max-w-sm" data-testid="server-toast">
          <Notice tone={toast.type}>
            {toast.title ? <strong className="block">{toast.title}</strong> : null}
            {toast.message}
            {toast.undo ? <UndoForm undo={toast.undo} /> : null}
          </Notice>
        </div>
      ) : null}
    </>
  );
}

/** The toast's Undo: a plain POST form (same one-time token as every form), so it works without JavaScript. */
function UndoForm({ undo }: { undo: ToastUndo }) {
  return (
    <Form method="post" action={undo.action} className="pointer-events-auto mt-2" data-testid="toast-undo">
      <FormToken />
      {undo.fields.map((field, i) => (
        <input key={`${field.name}-${i}`} type="hidden" name={field.name} value={field.value} />
      ))}
      <button
        type="submit"
        className="rounded-md bg-white px-3 py-1 text-sm font-semibold text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 hover:bg-slate-50 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-brand-500"
        aria-label={undo.label}
      >
        Undo
      </button>
    </Form>
  );
}

/**
 * Issue 14: after a form submitted with JavaScript, focus moves to the result, once for every form:
 * the first field with an error on the page, else the toast the submission brought. A dialog that
 * opened (a confirmation) keeps its own focus. Without JavaScript the browser loads a new page and
 * its skip link and headings do this job.
 */
function useFocusResult(toastId: string | null) {
  const navigation = useNavigation();
  const submitted = useRef<string | null | false>(false);
  useEffect(() => {
    if (navigation.state === "submitting") {
      submitted.current = toastId;
      return;
    }
    if (navigation.state !== "idle" || submitted.current === false) return;
    const toastBefore = submitted.current;
    submitted.current = false;
    // After React has drawn the result and sonner its toast.
    const timer = window.setTimeout(() => {
      if (document.querySelector("dialog[open]")) return;
      const invalid = document.querySelector<HTMLElement>('main [aria-invalid="true"]');
      if (invalid) return invalid.focus();
      if (!toastId || toastId === toastBefore) return;
      const shown = document.querySelector<HTMLElement>('[data-sonner-toast][data-index="0"]');
      shown?.focus();
    }, 100);
    return () => window.clearTimeout(timer);
  }, [navigation.state, toastId]);
}
