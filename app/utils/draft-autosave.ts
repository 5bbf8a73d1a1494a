// A form that saves a draft of itself on every change (the wizard's mapping step) posts it through
// a fetcher with this intent. Shared by the browser and the server.

export const DRAFT_INTENT = "draft";

/**
 * True for a draft autosave: it keeps what the form holds and changes nothing any route shows, so
 * no loader needs to run after it. Reloading root and the layout after each one also made a
 * "Save & continue" pressed meanwhile lose its step: the fetcher's reload finished during the
 * save's redirect and the router let it complete the navigation (see tests/e2e/mapping-autosave).
 */
export function isDraftAutosave(formData: FormData | undefined) {
  return formData?.get("intent") === DRAFT_INTENT;
}
