import { renderToStaticMarkup } from "react-dom/server";

// /api/docs: the reference, rendered on the server from /api/openapi.json's document as plain HTML
// (no script, no CDN), so it reads anywhere the API is reachable.

type Param = { name: string; in: string; required: boolean; schema: unknown };
type Operation = {
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  deprecated?: boolean;
  security: unknown[];
  parameters?: Param[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { description: string; content?: Record<string, { schema: unknown }> }>;
};
type Document = {
  info: { title: string; description: string };
  paths: Record<string, Record<string, Operation>>;
  tags: { name: string }[];
};

const CSS = `body{font:15px/1.5 system-ui,sans-serif;margin:0;color:#0f172a;background:#f8fafc}main{max-width:1000px;margin:0 auto;padding:24px}
h1{margin:0 0 8px}h2{margin-top:40px;border-bottom:2px solid #e2e8f0}section.op{background:#fff;border:1px solid #e2e8f0;border-radius:8px;padding:12px 16px;margin:12px 0}
code,pre{font:13px/1.4 ui-monospace,monospace}pre{background:#f1f5f9;padding:8px;border-radius:6px;overflow:auto;max-height:320px}
.m{display:inline-block;min-width:56px;font-weight:700}.GET{color:#047857}.POST{color:#1d4ed8}.PATCH{color:#a16207}.DELETE{color:#b91c1c}
table{border-collapse:collapse}td,th{border:1px solid #e2e8f0;padding:2px 8px;text-align:left}nav a{margin-right:12px}.gone{opacity:.7}`;

function OperationView({ method, path, op }: { method: string; path: string; op: Operation }) {
  const auth = op.security.length > 0;
  return (
    <section className={`op${op.deprecated ? " gone" : ""}`} id={op.operationId}>
      <h3>
        <span className={`m ${method}`}>{method}</span> <code>{path}</code>
      </h3>
      <p>{op.summary}</p>
      {op.description ? <p>{op.description}</p> : null}
      <p>{auth ? "Needs Authorization: Bearer <token>." : "No token needed."}</p>
      {op.parameters?.length ? (
        <table>
          <thead>
            <tr>
              <th>parameter</th>
              <th>in</th>
              <th>required</th>
              <th>schema</th>
            </tr>
          </thead>
          <tbody>
            {op.parameters.map((p) => (
              <tr key={`${p.in}:${p.name}`}>
                <td>
                  <code>{p.name}</code>
                </td>
                <td>{p.in}</td>
                <td>{p.required ? "yes" : "no"}</td>
                <td>
                  <code>{JSON.stringify(p.schema)}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {op.requestBody
        ? Object.entries(op.requestBody.content).map(([type, { schema }]) => (
            <div key={type}>
              <p>
                Body: <code>{type}</code>
              </p>
              <pre>{JSON.stringify(schema, null, 2)}</pre>
            </div>
          ))
        : null}
      <p>Responses:</p>
      <ul>
        {Object.entries(op.responses).map(([status, r]) => (
          <li key={status}>
            <code>{status}</code> {r.description}
            {r.content ? ` (${Object.keys(r.content).join(", ")})` : ""}
          </li>
        ))}
      </ul>
    </section>
  );
}

/** `code` and **strong** within one line of the description. */
function Inline({ text }: { text: string }) {
  return (
    <>
      {text
        .split(/(`[^`]+`|\*\*[^*]+\*\*)/)
        .map((part, i) =>
          part.startsWith("`") ? (
            <code key={i}>{part.slice(1, -1)}</code>
          ) : part.startsWith("**") ? (
            <strong key={i}>{part.slice(2, -2)}</strong>
          ) : (
            part
          ),
        )}
    </>
  );
}

/** The document's description: paragraphs, `## ` headings and numbered lists (the little Markdown it uses). */
function Description({ text }: { text: string }) {
  return (
    <>
      {text.split(/\n\n+/).map((block, i) => {
        if (block.startsWith("## ")) return <h2 key={i}>{block.slice(3)}</h2>;
        const lines = block.split("\n");
        if (lines.every((line) => /^\d+\. /.test(line))) {
          return (
            <ol key={i}>
              {lines.map((line) => (
                <li key={line}>
                  <Inline text={line.replace(/^\d+\. /, "")} />
                </li>
              ))}
            </ol>
          );
        }
        return (
          <p key={i}>
            <Inline text={block} />
          </p>
        );
      })}
    </>
  );
}

/** The reference page's HTML. */
export function renderApiDocs(document: Document) {
  const entries = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, op]) => ({ path, method: method.toUpperCase(), op })),
  );
  const body = renderToStaticMarkup(
    <main>
      <h1>{document.info.title}</h1>
      <Description text={document.info.description} />
      <p>
        Machine-readable: <a href="/api/openapi.json">/api/openapi.json</a> (OpenAPI 3.1).
      </p>
      <h2>Getting started</h2>
      <pre>{`curl -s -X POST $BASE/api/auth/login -H 'Content-Type: application/json' \\
  -d '{"email":"you@agency.example","password":"…"}'
# → {"access_token":"…","token_type":"Bearer","expires_at":"…","expires_in":900,"refresh_token":"…"}
curl -s $BASE/api/customers/all?page=1 -H "Authorization: Bearer $TOKEN"
# On a 401: refresh once (keep the new refresh token, the old one is spent), then retry once
curl -s -X POST $BASE/api/auth/refresh -H 'Content-Type: application/json' -d '{"refresh_token":"…"}'
# An integration sends its API key the same way: -H "Authorization: Bearer rmk_…"
# A failure: HTTP 4xx with Content-Type application/problem+json
# {"type":"/problems/invalid-input","title":"Some fields are not valid","status":400,
#  "detail":"Some fields are not valid.","errors":{"email":["email is required."]}}`}</pre>
      <nav>
        {document.tags.map((t) => (
          <a key={t.name} href={`#${encodeURIComponent(t.name)}`}>
            {t.name}
          </a>
        ))}
      </nav>
      {document.tags.map((t) => (
        <div key={t.name}>
          <h2 id={encodeURIComponent(t.name)}>{t.name}</h2>
          {entries
            .filter((e) => e.op.tags.includes(t.name))
            .map((e) => (
              <OperationView key={`${e.method} ${e.path}`} {...e} />
            ))}
        </div>
      ))}
    </main>,
  );
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${document.info.title} reference</title><style>${CSS}</style></head><body>${body}</body></html>`;
}
