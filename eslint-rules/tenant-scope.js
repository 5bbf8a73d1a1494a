// @ts-check
/**
 * ESLint rule `remarket/tenant-scope`: a query on a tenant-owned table must say which tenant.
 *
 * STYLE.md: "A helper that forgets the tenant should be impossible to write by accident." Every
 * table of app/db/schema with a `tenantId` column is tenant-owned (read from the schema files, so
 * a new table is covered the day it is added). The rule reports:
 *  - a Drizzle `select … .from(T)`, `update(T)` or `delete(T)` whose `.where(…)` never mentions
 *    `T.tenantId` (followed through local variables, arrays pushed to and functions of the same file);
 *  - a join of a tenant-owned table on anything but its `id` or its `tenantId`;
 *  - raw SQL (a `sql` template, or a plain template that is SQL) that reads a tenant-owned table
 *    without a `tenant_id` condition on it (or, when joined, without joining it by `id`).
 *
 * The few queries that must cross tenants (staff admin, the job queue, housekeeping, a lookup by a
 * secret token) say so, with the reason, in a comment on or before the statement or its function:
 *   // cross-tenant: the worker claims the oldest due job of any tenant
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const DEFAULT_SCHEMA_DIR = fileURLToPath(new URL("../app/db/schema/", import.meta.url));
const SCHEMA_IMPORT = /(^|[/~])db\/schema(\/|$)/;
const OPT_OUT = /cross-tenant:(.*)/;
/** A reason is a few words, not a shrug. */
const MIN_REASON_WORDS = 4;

/** @typedef {{ sqlName: string; tenantOwned: boolean }} TableInfo */

/** @type {Map<string, Map<string, TableInfo>>} */
const schemaCache = new Map();

/**
 * Tables declared in the schema directory: export name → SQL name and whether it has a tenantId.
 * @param {string} schemaDir
 */
export function readSchemaTables(schemaDir) {
  const cached = schemaCache.get(schemaDir);
  if (cached) return cached;
  /** @type {Map<string, TableInfo>} */
  const tables = new Map();
  for (const file of fs
    .readdirSync(schemaDir)
    .filter((f) => f.endsWith(".ts"))
    .sort()) {
    const text = fs.readFileSync(path.join(schemaDir, file), "utf8");
    const starts = [...text.matchAll(/export const (\w+)\s*=\s*pgTable\(\s*"(\w+)"/g)];
    starts.forEach((match, i) => {
      const end = i + 1 < starts.length ? starts[i + 1].index : text.length;
      const nextExport = text.indexOf("\nexport ", match.index + 1);
      const block = text.slice(match.index, nextExport > 0 && nextExport < end ? nextExport : end);
      tables.set(match[1], { sqlName: match[2], tenantOwned: /\btenantId\b/.test(block) });
    });
  }
  schemaCache.set(schemaDir, tables);
  return tables;
}

const JOINS = new Set(["innerJoin", "leftJoin", "rightJoin", "fullJoin"]);
/** Calls whose arguments name columns to read or write, not conditions. */
const SHAPES = new Set(["select", "selectDistinct", "selectDistinctOn", "returning", "set", "values"]);
const SQL_KEYWORDS = new Set(
  "where on join left right inner outer full cross natural group order limit offset set using lateral union having window for returning and or select values as".split(
    " ",
  ),
);
const snake = (/** @type {string} */ name) => name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const escapeRe = (/** @type {string} */ s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The rest of the (sub)query a table reference sits in: text up to the parenthesis that closes
 * it (or a `union`), with nested parentheses blanked out, so a subquery's `tenant_id` does not
 * count for the table around it.
 * @param {string} rest
 */
function sameLevel(rest) {
  let depth = 0;
  let out = "";
  for (const ch of rest) {
    if (ch === "(") depth++;
    if (ch === ")" && --depth < 0) break;
    out += depth === 0 && ch !== ")" ? ch : " ";
  }
  const union = out.search(/\bunion\b/);
  return union >= 0 ? out.slice(0, union) : out;
}

/** @type {import("eslint").Rule.RuleModule} */
export const tenantScopeRule = {
  meta: {
    type: "problem",
    docs: { description: "Queries on tenant-owned tables must filter by tenant (or say why they cross tenants)." },
    schema: [{ type: "object", properties: { schemaDir: { type: "string" } }, additionalProperties: false }],
    messages: {
      missingWhere:
        "Query on tenant-owned table '{{table}}' has no where-clause on {{table}}.tenantId. Filter by tenant, or explain a deliberate cross-tenant query with a `// cross-tenant: <reason>` comment.",
      unscopedJoin: "Join of tenant-owned table '{{table}}' is on neither {{table}}.id nor {{table}}.tenantId.",
      rawUnscoped:
        "Raw SQL reads tenant-owned table '{{table}}' without a tenant_id condition on it. Filter by tenant, or explain a deliberate cross-tenant query with a `// cross-tenant: <reason>` comment.",
      reasonMissing:
        "A `cross-tenant:` opt-out needs its reason (at least {{words}} words): who reads across tenants, and why that is safe.",
    },
  },

  create(context) {
    const sourceCode = context.sourceCode;
    const schemaDir = context.options[0]?.schemaDir ? path.resolve(context.cwd, context.options[0].schemaDir) : DEFAULT_SCHEMA_DIR;
    const schema = readSchemaTables(schemaDir);
    /** Local name → schema table (only names imported from the schema module). @type {Map<string, TableInfo & { exportName: string }>} */
    const imported = new Map();
    /** Opt-out comments already judged, so a short reason is reported once. */
    const judged = new Set();

    /** @param {any} node */
    function scopeOf(node) {
      return sourceCode.getScope(node);
    }

    /** The variable an identifier refers to, looked up from its scope outwards. @param {any} node */
    function variableOf(node) {
      for (let scope = /** @type {import("eslint").Scope.Scope | null} */ (scopeOf(node)); scope; scope = scope.upper) {
        const variable = scope.set.get(node.name);
        if (variable) return variable;
      }
      return null;
    }

    /**
     * The tenant-owned table a `.from()`/`update()`/`join` argument names, as the identifier the
     * query refers to it by: a schema import, or a loop variable over an array of schema tables.
     * @param {any} node
     * @returns {{ name: string; sqlName: string } | null}
     */
    function tenantTableOf(node) {
      if (!node || node.type !== "Identifier") return null;
      const table = imported.get(node.name);
      const variable = variableOf(node);
      const def = variable?.defs[0];
      if (table && def?.type === "ImportBinding") return table.tenantOwned ? { name: node.name, sqlName: table.sqlName } : null;
      // for (const table of [customers, policies]) … .update(table) …
      const loop = def?.node?.parent?.parent;
      if (def?.type === "Variable" && loop?.type === "ForOfStatement" && loop.right.type === "ArrayExpression") {
        const members = loop.right.elements.map((/** @type {any} */ e) => (e?.type === "Identifier" ? imported.get(e.name) : undefined));
        if (members.length > 0 && members.every((/** @type {any} */ m) => m?.tenantOwned))
          return { name: node.name, sqlName: members[0].sqlName };
      }
      return null;
    }

    /**
     * Walk `node` and what it is built from in this file: the initialiser of a local variable it
     * names, what is pushed to it, the body of a local function it calls. Not followed: values
     * read from the database (`await`, destructured rows) and select/returning/set shapes, which
     * name columns without filtering on them. Stops as soon as `found` returns true.
     * @param {any} node @param {(n: any) => boolean} found
     */
    function walk(node, found) {
      const seen = new Set();
      /** @param {any} n @returns {boolean} */
      const visit = (n) => {
        if (!n || typeof n.type !== "string" || seen.has(n)) return false;
        seen.add(n);
        if (found(n)) return true;
        if (n.type === "Identifier") {
          const variable = variableOf(n);
          for (const def of variable?.defs ?? []) {
            if (
              def.type === "Variable" &&
              def.node.id.type === "Identifier" &&
              def.node.init?.type !== "AwaitExpression" &&
              visit(def.node.init)
            )
              return true;
            if (def.type === "FunctionName" && visit(def.node.body)) return true;
          }
          for (const ref of variable?.references ?? []) {
            const member = /** @type {any} */ (ref.identifier).parent;
            if (member?.type === "MemberExpression" && member.property.name === "push" && member.parent.type === "CallExpression") {
              if (member.parent.arguments.some(visit)) return true;
            }
          }
          return false;
        }
        if (n.type === "CallExpression" && n.callee.type === "MemberExpression" && SHAPES.has(n.callee.property.name))
          return visit(n.callee.object);
        for (const key of sourceCode.visitorKeys[n.type] ?? []) {
          if (
            (n.type === "MemberExpression" && key === "property" && !n.computed) ||
            (n.type === "Property" && key === "key" && !n.computed)
          )
            continue;
          const child = n[key];
          if (Array.isArray(child) ? child.some(visit) : visit(child)) return true;
        }
        return false;
      };
      return visit(node);
    }

    /** `table.column` of a schema table, as its SQL text (`customers.tenant_id`), or null. @param {any} n */
    function schemaColumn(n) {
      if (n.type !== "MemberExpression" || n.computed || n.object.type !== "Identifier" || n.property.type !== "Identifier") return null;
      const table = imported.get(n.object.name) ?? (tenantTableOf(n.object) ? { sqlName: tenantTableOf(n.object)?.sqlName } : null);
      return table ? { table: n.object.name, sql: `${table.sqlName}.${snake(n.property.name)}`, column: n.property.name } : null;
    }

    /**
     * Does `node` filter on `table.<one of columns>`: the Drizzle column, or in raw SQL text the
     * column unqualified or qualified by this table?
     * @param {any} node @param {string} table @param {string[]} columns @param {string} sqlName
     */
    function mentions(node, table, columns, sqlName) {
      const rawPatterns = columns.map((c) => new RegExp(`(\\b${escapeRe(sqlName)}"?\\.)?"?\\b${snake(c)}\\b`, "gi"));
      return walk(node, (n) => {
        const column = schemaColumn(n);
        if (column) return column.table === table && columns.includes(column.column);
        if (n.type !== "TemplateElement") return false;
        const text = n.value.raw;
        return rawPatterns.some((re) => [...text.matchAll(re)].some((m) => Boolean(m[1]) || !/[.\w"]$/.test(text.slice(0, m.index))));
      });
    }

    /** The calls chained after `call` (`.where(…)`, `.leftJoin(…)`, …) and the chain's outermost node. @param {any} call */
    function chainAfter(call) {
      /** @type {{ method: string; args: any[] }[]} */
      const links = [];
      let current = call;
      while (
        current.parent?.type === "MemberExpression" &&
        current.parent.object === current &&
        current.parent.parent?.type === "CallExpression" &&
        current.parent.parent.callee === current.parent
      ) {
        links.push({ method: current.parent.property.name, args: current.parent.parent.arguments });
        current = current.parent.parent;
      }
      return { links, top: current };
    }

    /** Is `node` covered by a `cross-tenant:` comment (with a reason) on it, before it or before its function? @param {any} node @param {any} top */
    function optedOut(node, top) {
      const comments = [...sourceCode.getCommentsInside(top)];
      for (let n = node; n && n.type !== "Program"; n = n.parent) comments.push(...sourceCode.getCommentsBefore(n));
      const marker = comments.find((c) => OPT_OUT.test(c.value));
      if (!marker) return false;
      const reason = OPT_OUT.exec(marker.value)?.[1].replace(/\*/g, " ").trim() ?? "";
      if (reason.split(/\s+/).filter(Boolean).length < MIN_REASON_WORDS && !judged.has(marker)) {
        judged.add(marker);
        if (marker.loc) context.report({ loc: marker.loc, messageId: "reasonMissing", data: { words: String(MIN_REASON_WORDS) } });
      }
      return true;
    }

    /** Raw SQL text of a template, with `${…}` pieces rendered: tables and columns by their SQL names, same-file fragments inlined. */
    function renderSql(/** @type {any} */ template, depth = 0) {
      /** @param {any} e @returns {string} */
      const piece = (e) => {
        if (depth > 6 || !e) return " $? ";
        if (e.type === "Identifier") {
          const table = imported.get(e.name);
          if (table) return ` ${table.sqlName} `;
          const def = variableOf(e)?.defs[0];
          if (def?.type === "Variable" && def.node.init && /** @type {any} */ (def.node).parent.kind === "const")
            return piece(def.node.init);
          return " $? ";
        }
        if (e.type === "MemberExpression" && !e.computed && e.object.type === "Identifier" && imported.has(e.object.name)) {
          return ` ${imported.get(e.object.name)?.sqlName}.${snake(e.property.name)} `;
        }
        if (e.type === "TaggedTemplateExpression" && e.tag.type === "Identifier" && e.tag.name === "sql")
          return renderSql(e.quasi, depth + 1);
        if (e.type === "TemplateLiteral") return renderSql(e, depth + 1);
        if (e.type === "ConditionalExpression") return `${piece(e.consequent)} ${piece(e.alternate)}`;
        // Anything else (a Drizzle condition, a helper's result): the schema columns it is built from.
        const columns = new Set();
        walk(e, (n) => {
          const column = schemaColumn(n);
          if (column) columns.add(column.sql);
          return false;
        });
        return columns.size ? ` ${[...columns].join(" and ")} ` : " $? ";
      };
      return template.quasis
        .map(
          (/** @type {any} */ q, /** @type {number} */ i) =>
            q.value.raw + (i < template.expressions.length ? piece(template.expressions[i]) : ""),
        )
        .join("");
    }

    /** Report tenant-owned tables read by raw SQL without a tenant condition. @param {any} template @param {any} reportNode */
    function checkRawSql(template, reportNode) {
      const text = renderSql(template).toLowerCase();
      if (!/\b(select|update|delete)\b/.test(text)) return;
      const refs = /\b(from|join|update)\s+"?([a-z_][a-z0-9_]*)"?(?!"?\.)(?:\s+(?:as\s+)?([a-z_][a-z0-9_]*))?/g;
      const bySql = new Map([...imported.values()].map((t) => [t.sqlName, t]));
      for (const [schemaName, info] of schema) if (!bySql.has(info.sqlName)) bySql.set(info.sqlName, { ...info, exportName: schemaName });
      for (const m of text.matchAll(refs)) {
        const [, keyword, tableName, aliasWord] = m;
        if (!bySql.get(tableName)?.tenantOwned) continue;
        const alias = aliasWord && !SQL_KEYWORDS.has(aliasWord) ? aliasWord : null;
        const names = [tableName, alias]
          .filter(Boolean)
          .map((n) => escapeRe(/** @type {string} */ (n)))
          .join("|");
        const segment = sameLevel(text.slice((m.index ?? 0) + m[0].length));
        // Only the table's own (sub)query counts: `r.tenant_id = f.tenant_id` in a sub-query scopes r, not f.
        const qualified = new RegExp(`\\b(${names})"?\\."?tenant_id\\b`).test(segment);
        const unqualified = /(^|[^.\w"])"?tenant_id\b/.test(segment);
        // Joined (or, in a correlated subquery, matched) on its primary key: a row the outer query already scoped.
        const pk = `"?\\b(?:${names})"?\\."?id\\b"?`;
        const column = `"?[a-z_][a-z0-9_]*"?\\."?[a-z_][a-z0-9_]*"?`;
        const byId =
          keyword === "join"
            ? new RegExp(`${pk}\\s*=|=\\s*${pk}`).test(segment)
            : new RegExp(`${pk}\\s*=\\s*${column}|${column}\\s*=\\s*${pk}`).test(segment);
        if (qualified || unqualified || byId) continue;
        context.report({ node: reportNode, messageId: "rawUnscoped", data: { table: tableName } });
      }
    }

    return {
      ImportDeclaration(node) {
        if (!SCHEMA_IMPORT.test(String(node.source.value)) || /** @type {any} */ (node).importKind === "type") return;
        for (const spec of node.specifiers) {
          if (spec.type !== "ImportSpecifier" || /** @type {any} */ (spec).importKind === "type") continue;
          const exportName = spec.imported.type === "Identifier" ? spec.imported.name : String(spec.imported.value);
          const table = schema.get(exportName);
          if (table) imported.set(spec.local.name, { ...table, exportName });
        }
      },

      CallExpression(node) {
        const callee = /** @type {any} */ (node).callee;
        if (callee.type !== "MemberExpression" || callee.computed || !["from", "update", "delete"].includes(callee.property.name)) return;
        const table = tenantTableOf(node.arguments[0]);
        // Joins matter after any `from`: a shared table (the carrier catalogue) joined to a tenant's rows.
        if (!table && (callee.property.name !== "from" || callee.object.type !== "CallExpression")) return;
        const { links, top } = chainAfter(node);
        if (table) {
          const scoped = links.some(
            (l) => l.method === "where" && l.args.some((a) => mentions(a, table.name, ["tenantId"], table.sqlName)),
          );
          if (!scoped && !optedOut(node, top)) context.report({ node, messageId: "missingWhere", data: { table: table.name } });
        }
        for (const link of links) {
          if (!JOINS.has(link.method)) continue;
          const joined = tenantTableOf(link.args[0]);
          if (!joined) continue;
          if (mentions(link.args[1], joined.name, ["id", "tenantId"], joined.sqlName)) continue;
          if (!optedOut(link.args[0], top)) context.report({ node: link.args[0], messageId: "unscopedJoin", data: { table: joined.name } });
        }
      },

      TaggedTemplateExpression(node) {
        if (node.tag.type === "Identifier" && node.tag.name === "sql" && !optedOut(node, node)) checkRawSql(node.quasi, node);
      },

      TemplateLiteral(node) {
        // Plain templates that hold a whole statement (e.g. a prepared statement's text).
        if (node.parent.type === "TaggedTemplateExpression") return;
        const text = node.quasis.map((q) => q.value.raw).join(" ");
        if (/\bselect\b[\s\S]*\bfrom\b|\bupdate\s+\w+\s+set\b|\bdelete\s+from\b/i.test(text) && !optedOut(node, node))
          checkRawSql(node, node);
      },
    };
  },
};

/** The plugin eslint.config.js loads. */
export default { rules: { "tenant-scope": tenantScopeRule } };
