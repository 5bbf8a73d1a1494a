import { describe, expect, test } from "vitest";
import { assertClockRuns, executedStatementName, registerCachedRead, watchStatements, type ProtocolRunner } from "./statement-clock.server";

/** A simple-protocol query message, as PGlite's exec sends it. */
function query(text: string) {
  const body = new TextEncoder().encode(`${text}\0`);
  const message = new Uint8Array(5 + body.length);
  message[0] = 0x51;
  new DataView(message.buffer).setUint32(1, 4 + body.length);
  message.set(body, 5);
  return message;
}
const sync = () => Uint8Array.of(0x53, 0, 0, 0, 4);
const parse = () => Uint8Array.of(0x50, 0, 0, 0, 8, 0, 0x78, 0);

function fakeClient() {
  const seen: Uint8Array[] = [];
  const client: ProtocolRunner = {
    execProtocolRawSync(message) {
      seen.push(message);
      return new Uint8Array(0);
    },
  };
  return { client, seen };
}

describe("the embedded database's statement clock", () => {
  test("reads the statement name of a single EXECUTE message and nothing else", () => {
    expect(executedStatementName(query("EXECUTE resolve_session_v1('ab12')"))).toBe("resolve_session_v1");
    expect(executedStatementName(query("SELECT 1"))).toBeNull();
    expect(executedStatementName(query("EXECUTE"))).toBeNull();
    // Exactly one literal parameter and nothing after it.
    expect(executedStatementName(query("EXECUTE resolve_session_v1('x'); UPDATE tenants SET name = 'y'"))).toBeNull();
    expect(executedStatementName(query("EXECUTE resolve_session_v1('x') "))).toBeNull();
    expect(executedStatementName(query("EXECUTE resolve_session_v1('x','y')"))).toBeNull();
    expect(executedStatementName(query("EXECUTE resolve_session_v1(1)"))).toBeNull();
    expect(executedStatementName(parse())).toBeNull();
    // Two messages in one call: not a lone read, whatever the first one is.
    const both = new Uint8Array([...query("EXECUTE clock_test_read('x')"), ...sync()]);
    expect(executedStatementName(both)).toBeNull();
  });

  test("every message moves it except a registered read and the Sync that closes that read", () => {
    registerCachedRead("clock_test_read");
    const { client, seen } = fakeClient();
    const clock = watchStatements(client);

    client.execProtocolRawSync(query("EXECUTE clock_test_read('x')"));
    client.execProtocolRawSync(sync());
    expect(clock.count).toBe(0);

    // An unregistered EXECUTE, a write, and the Sync that commits an extended-protocol write all count.
    client.execProtocolRawSync(query("EXECUTE other_statement('x')"));
    expect(clock.count).toBe(1);
    client.execProtocolRawSync(query("UPDATE tenants SET name = 'x'"));
    expect(clock.count).toBe(2);
    client.execProtocolRawSync(parse());
    client.execProtocolRawSync(sync());
    expect(clock.count).toBe(4);
    // The messages still reach the database, unchanged.
    expect(seen).toHaveLength(6);
  });

  test("a clock that saw nothing while the database ran its migrations stops the start-up", () => {
    const { client } = fakeClient();
    const clock = watchStatements(client);
    expect(() => assertClockRuns(clock)).toThrow(/did not see/);
    client.execProtocolRawSync(query("SELECT 1"));
    expect(() => assertClockRuns(clock)).not.toThrow();
  });

  test("only plain lower-case names can be registered (they are matched against raw SQL)", () => {
    expect(() => registerCachedRead("Robert'); DROP TABLE x;--")).toThrow(/plain lower-case identifier/);
  });
});
