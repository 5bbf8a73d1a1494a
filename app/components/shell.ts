// The shell's pieces that the root and most pages share, imported from this one module (issue 14).
// The root uses every one of them, so every page loads them all anyway; imported through here,
// everything that reaches one reaches all of them, and the browser build makes them one shared
// chunk (one script request) instead of one chunk per set of routes that happens to use each
// (button, modal, forms, alert pill, error page, network status, shell: seven). The pieces import
// each other through here too, for the same reason. Add only what the root already loads: a piece
// that only some pages use would then load on every page.
export { GeneralErrorPage, RouteErrorBoundary } from "~/components/error-page";
export { FORM_TOKEN_FIELD, FormToken, PostForm, resultFor, useFormId } from "~/components/forms";
export { ConnectionErrorNotice, HeldSubmissionNotice, InlineRetryNotice, OfflineIndicator } from "~/components/network-status";
export { RootShell, useRootData } from "~/components/root-shell";
export { AlertPill, Notice } from "~/components/ui/alert-pill";
export { Button } from "~/components/ui/button";
export { Modal } from "~/components/ui/modal";
