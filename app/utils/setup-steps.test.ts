import { describe, expect, test } from "vitest";
import { editStepRoute, laterStep, nextStep, stepIndex, stepRoute } from "./setup-steps";

describe("stepRoute (seed §2 step → route)", () => {
  const id = "0b6f7a52-2c1d-4f0e-9a77-5d8f1c2b3a41";
  test.each([
    ["CONNECTION_SETTING", `/create-connection/${id}?integrationId=ezlynx`],
    ["CONNECTION_MAPPING", `/configure-integration/configuration/${id}`],
    ["PREDICTION_SETTING", `/configure-integration/prediction/${id}`],
    ["TASK_CREATION", `/configure-integration/task-creation/${id}`],
    ["FILTER_OPTIONS", `/configure-integration/filter-options/${id}`],
    ["COMPLETED", `/create-connection/${id}?integrationId=ezlynx`],
    ["NOT_SET", "/create-connection/?integrationId=ezlynx"],
    ["SOMETHING_ELSE", "/create-connection/?integrationId=ezlynx"],
    ["", "/create-connection/?integrationId=ezlynx"],
  ])("%s", (step, path) => {
    expect(stepRoute(step, id, "ezlynx")).toBe(path);
  });

  test("null and undefined steps start over", () => {
    expect(stepRoute(null, id, "csv")).toBe("/create-connection/?integrationId=csv");
    expect(stepRoute(undefined, id, "csv")).toBe("/create-connection/?integrationId=csv");
  });

  test("without a connection every step starts over", () => {
    expect(stepRoute("CONNECTION_MAPPING", null, "salesforce")).toBe("/create-connection/?integrationId=salesforce");
  });

  test("the integration id is encoded", () => {
    expect(stepRoute("COMPLETED", id, "a b&c")).toBe(`/create-connection/${id}?integrationId=a+b%26c`);
  });
});

describe("step order", () => {
  test("next and later", () => {
    expect(nextStep("CONNECTION_SETTING")).toBe("CONNECTION_MAPPING");
    expect(nextStep("FILTER_OPTIONS")).toBe("COMPLETED");
    expect(nextStep("COMPLETED")).toBe("COMPLETED");
    expect(laterStep("TASK_CREATION", "CONNECTION_MAPPING")).toBe("TASK_CREATION");
    expect(laterStep("CONNECTION_MAPPING", "COMPLETED")).toBe("COMPLETED");
    expect(stepIndex("bogus")).toBe(0);
  });

  test("editing step 1 of a completed connection asks for the form, not the summary", () => {
    expect(editStepRoute("CONNECTION_SETTING", "x", "csv")).toBe("/create-connection/x?integrationId=csv&edit=1");
    expect(editStepRoute("FILTER_OPTIONS", "x", "csv")).toBe("/configure-integration/filter-options/x");
  });
});

describe("stepGuardRedirect (cannot skip ahead)", () => {
  test("earlier and current steps are open, later ones send you to the current step", async () => {
    const { stepGuardRedirect } = await import("./setup-steps");
    expect(stepGuardRedirect("TASK_CREATION", "CONNECTION_MAPPING", "c1", "csv")).toBeNull();
    expect(stepGuardRedirect("TASK_CREATION", "TASK_CREATION", "c1", "csv")).toBeNull();
    expect(stepGuardRedirect("TASK_CREATION", "FILTER_OPTIONS", "c1", "csv")).toBe("/configure-integration/task-creation/c1");
    expect(stepGuardRedirect("CONNECTION_MAPPING", "COMPLETED", "c1", "csv")).toBe("/configure-integration/configuration/c1");
    expect(stepGuardRedirect("COMPLETED", "FILTER_OPTIONS", "c1", "csv")).toBeNull();
  });
});
