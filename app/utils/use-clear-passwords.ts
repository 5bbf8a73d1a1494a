import { useEffect } from "react";

/**
 * After a failed submission with JavaScript, empty the password inputs `ids`, as a page
 * rendered by the server (no JavaScript) does: passwords are never sent back.
 */
export function useClearPasswords(lastResult: { status?: string } | undefined, ids: string[]) {
  const key = ids.join(",");
  useEffect(() => {
    if (lastResult?.status !== "error") return;
    for (const id of key.split(",")) {
      const input = document.getElementById(id);
      if (input instanceof HTMLInputElement) input.value = "";
    }
  }, [lastResult, key]);
}
