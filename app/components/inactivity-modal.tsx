import { useFetcher, useNavigate, useLocation } from "@remix-run/react";
import { useEffect, useState } from "react";
import { Button } from "~/components/ui/button";
import { Modal } from "~/components/ui/modal";
import { FormToken } from "~/components/forms";

export const WARNING_MS = 60_000; // seed §9: inactivity warning 60 s before sign-out

/**
 * Seed §2 inactivity modal, shown 60 s before the server's idle expiry. Reset touches the
 * session on the server (which is what really keeps it alive) and closes the modal.
 */
export function InactivityModal({ idleExpiresAt }: { idleExpiresAt: string }) {
  const fetcher = useFetcher<{ idleExpiresAt: string | null }>();
  const navigate = useNavigate();
  const location = useLocation();
  const [open, setOpen] = useState(false);
  const expiresAt = fetcher.data?.idleExpiresAt ?? idleExpiresAt;

  useEffect(() => {
    const expiry = new Date(expiresAt).getTime();
    const warnIn = Math.max(0, expiry - Date.now() - WARNING_MS);
    setOpen(false);
    const warn = setTimeout(() => setOpen(true), warnIn);
    // At expiry the server no longer knows the session; reloading the page sends the user to login.
    const expire = setTimeout(() => navigate(`${location.pathname}${location.search}`, { replace: true }), Math.max(0, expiry - Date.now()) + 1000);
    return () => {
      clearTimeout(warn);
      clearTimeout(expire);
    };
  }, [expiresAt, navigate, location.pathname, location.search]);

  return (
    <Modal open={open} title="Are you still there?" onClose={() => setOpen(false)}>
      <p className="text-sm">For your security, you will be logged out due to inactivity in 60 seconds</p>
      <fetcher.Form method="post" action="/resources/session" className="mt-4 flex justify-end">
        <FormToken />
        <input type="hidden" name="intent" value="touch" />
        <Button type="submit" pending={fetcher.state !== "idle"} onClick={() => setOpen(false)}>
          Reset
        </Button>
      </fetcher.Form>
    </Modal>
  );
}
