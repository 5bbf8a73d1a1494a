import type { ConnectionMapping } from "~/db/schema/connections";
import type { Integration } from "~/utils/integrations";
import type { Connector, SourceAttribute, SourceObject, SourceValue } from "./connectors/types";
import { applyPreset, detectPreset, getPreset } from "./mapping/presets";
import { suggestMapping } from "./mapping/suggest";
import { suggestValueMaps } from "./mapping/values";

// The mapping step's data: objects → attributes → distinct values (seed salesforce mapping/
// objects, object/{object}/attributes, attribute/{attribute}/values), and the suggested mapping.

export type MappingSource = {
  objects: SourceObject[];
  object: string;
  attributes: SourceAttribute[];
};

/** The objects of the source and the attributes of the chosen (or most likely) object. */
export async function loadMappingSource(connector: Connector, requestedObject?: string | null): Promise<MappingSource> {
  const objects = await connector.listObjects();
  const object =
    objects.find((o) => o.name === requestedObject)?.name ??
    objects.find((o) => o.name === "InsurancePolicy")?.name ??
    objects[0]?.name ??
    "";
  const attributes = object ? await connector.listAttributes(object) : [];
  return { objects, object, attributes };
}

/**
 * Suggested field mapping: the integration's preset (or the preset the headers match), then
 * name similarity for the fields the preset leaves open.
 */
export function suggestFields(attributes: string[], integration: Pick<Integration, "preset">, presetId?: string | null) {
  const preset = getPreset(presetId ?? integration.preset) ?? detectPreset(attributes);
  const fromPreset = preset ? applyPreset(preset, attributes) : {};
  const used = new Set(Object.values(fromPreset));
  const bySimilarity = suggestMapping(attributes.filter((a) => !used.has(a)));
  const fields: Record<string, string> = { ...bySimilarity, ...fromPreset };
  return { fields, preset: preset && Object.keys(fromPreset).length > 0 ? preset.id : null };
}

/** Distinct values of the mapped line-of-business and status attributes, with suggested maps. */
export async function loadValueMaps(connector: Connector, object: string, fields: Record<string, string>) {
  // One after the other: for a file each is a pass over the whole export, and two at once only
  // doubles what is held in memory (the thread is the same).
  const lobValues: SourceValue[] = fields.lineOfBusiness ? await connector.listValues(object, fields.lineOfBusiness, 100) : [];
  const statusValues: SourceValue[] = fields.status ? await connector.listValues(object, fields.status, 100) : [];
  const suggested = suggestValueMaps(
    lobValues.map((v) => v.value),
    statusValues.map((v) => v.value),
  );
  return { lobValues: lobValues.filter((v) => v.value), statusValues: statusValues.filter((v) => v.value), suggested };
}

/** A complete default mapping (suggestions accepted): used by fixtures, the demo and the benchmark. */
export async function defaultMapping(connector: Connector, integration: Pick<Integration, "preset">): Promise<ConnectionMapping> {
  const source = await loadMappingSource(connector);
  const { fields, preset } = suggestFields(
    source.attributes.map((a) => a.name),
    integration,
  );
  const { suggested } = await loadValueMaps(connector, source.object, fields);
  return { object: source.object, fields, valueMaps: suggested, preset };
}
