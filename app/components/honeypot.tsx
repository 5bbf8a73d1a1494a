/** Hidden from people and assistive technology; see utils/honeypot.server.ts. */
export function Honeypot() {
  return (
    <div aria-hidden="true" style={{ position: "absolute", left: "-10000px", width: 1, height: 1, overflow: "hidden" }}>
      <label htmlFor="website-field">Leave this empty</label>
      <input id="website-field" type="text" name="website" tabIndex={-1} autoComplete="off" defaultValue="" />
    </div>
  );
}
