import { useEffect, useRef, type ReactNode } from "react";

/**
 * Seed §2 modal with a close button, on a real <dialog>: focus is trapped and Escape closes it.
 */
export function Modal({ open, title, onClose, children }: { open: boolean; title: string; onClose: () => void; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);
  return (
    <dialog
      ref={ref}
      onClose={onClose}
      aria-labelledby="modal-title"
      className="w-full max-w-md rounded-lg bg-white p-0 shadow-xl backdrop:bg-slate-900/50 dark:bg-slate-900 dark:text-slate-100"
    >
      <div className="flex items-start justify-between border-b border-slate-200 px-5 py-3 dark:border-slate-700">
        <h2 id="modal-title" className="text-base font-semibold">
          {title}
        </h2>
        <button type="button" onClick={onClose} className="rounded p-1 text-slate-500 hover:bg-slate-100" aria-label="Close">
          <span aria-hidden="true">×</span>
        </button>
      </div>
      <div className="px-5 py-4">{children}</div>
    </dialog>
  );
}
