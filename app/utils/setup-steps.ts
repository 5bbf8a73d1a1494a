// Seed §2/§3: the integration setup steps and the one function that maps a step to its route.
// Shared by server and browser (no server-only imports).

export const STEP_ORDER = [
  "NOT_SET",
  "CONNECTION_SETTING",
  "CONNECTION_MAPPING",
  "PREDICTION_SETTING",
  "TASK_CREATION",
  "FILTER_OPTIONS",
  "COMPLETED",
] as const;
export type Step = (typeof STEP_ORDER)[number];

/** The six steps the progress indicator shows (NOT_SET is "not started"). */
export const WIZARD_STEPS: { step: Step; label: string }[] = [
  { step: "CONNECTION_SETTING", label: "Connection" },
  { step: "CONNECTION_MAPPING", label: "Mapping" },
  { step: "PREDICTION_SETTING", label: "Prediction" },
  { step: "TASK_CREATION", label: "Task creation" },
  { step: "FILTER_OPTIONS", label: "Filter options" },
  { step: "COMPLETED", label: "Summary" },
];

export function isStep(value: unknown): value is Step {
  return typeof value === "string" && (STEP_ORDER as readonly string[]).includes(value);
}

/** Position of a step in the order; unknown values count as NOT_SET. */
export function stepIndex(step: string | null | undefined) {
  return isStep(step) ? STEP_ORDER.indexOf(step) : 0;
}

/** The step after `step` (COMPLETED stays COMPLETED). */
export function nextStep(step: Step): Step {
  return STEP_ORDER[Math.min(STEP_ORDER.indexOf(step) + 1, STEP_ORDER.length - 1)];
}

/** The later of two steps: saving an earlier step again never moves the wizard back. */
export function laterStep(a: Step, b: Step): Step {
  return stepIndex(a) >= stepIndex(b) ? a : b;
}

/**
 * Seed §2 step → route. CONNECTION_SETTING and COMPLETED open /create-connection/{id};
 * the configure steps open /configure-integration/…/{id}; anything else (NOT_SET, unknown,
 * or no connection yet) starts over at /create-connection/?integrationId=….
 */
export function stepRoute(step: string | null | undefined, connectionId: string | null | undefined, integrationId: string) {
  const query = `?${new URLSearchParams({ integrationId })}`;
  if (!connectionId) return `/create-connection/${query}`;
  const id = encodeURIComponent(connectionId);
  switch (step) {
    case "CONNECTION_SETTING":
    case "COMPLETED":
      return `/create-connection/${id}${query}`;
    case "CONNECTION_MAPPING":
      return `/configure-integration/configuration/${id}`;
    case "PREDICTION_SETTING":
      return `/configure-integration/prediction/${id}`;
    case "TASK_CREATION":
      return `/configure-integration/task-creation/${id}`;
    case "FILTER_OPTIONS":
      return `/configure-integration/filter-options/${id}`;
    default:
      return `/create-connection/${query}`;
  }
}

/** Where the wizard's own edit link for a step goes (step 1 of a completed connection needs ?edit). */
export function editStepRoute(step: Step, connectionId: string, integrationId: string) {
  if (step === "CONNECTION_SETTING") return `${stepRoute(step, connectionId, integrationId)}&edit=1`;
  return stepRoute(step, connectionId, integrationId);
}

/**
 * Wizard guard: a step can be entered once every step before it is saved. Returns where to
 * go instead (the step the connection is at), or null when `requested` may be shown.
 */
export function stepGuardRedirect(current: Step, requested: Step, connectionId: string, integrationId: string) {
  if (stepIndex(requested) <= stepIndex(current)) return null;
  return stepRoute(current, connectionId, integrationId);
}
