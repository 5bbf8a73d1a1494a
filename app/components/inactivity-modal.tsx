import { useFetcher, useLocation, useNavigate } from "@remix-run/react";
import { useEffect, useState } from "react";
import { FormToken, Button, Modal } from "~/components/shell";

export const WARNING_MS = 60_000; // seed §9: inactivity warning 60 s before sign-out

/**
 * Seed §2 inactivity modal, shown 60 s before the server's idle expiry. Reset touches the
 * session on the server (which is what really keeps it alive) and closes the modal; the root
 * loader then revalidates and hands a fresh `expiresInMs`, which restarts the timers.
 */
export function InactivityModal({ expiresInMs }: { expiresInMs: number }) {
  const fetcher = useFetcher();
  const navigate = useNavigate();
  const location = useLocation();
  const [open, setOpen] = useState(false);
  // When the timers run out (client clock); null until they are armed, after hydration.
  const [deadline, setDeadline] = useState<number | null>(null);

  useEffect(() => {
    const ends = Date.now() + expiresInMs;
    setOpen(false);
    setDeadline(ends);
    const warn = setTimeout(() => setOpen(true), Math.max(0, ends - Date.now() - WARNING_MS));
    // At expiry the server no longer knows the session; reloading the page sends the user to login.
    const expire = setTimeout(
      () => navigate(`${location.pathname}${location.search}`, { replace: true }),
      Math.max(0, ends - Date.now()) + 1000,
    );
    return () => {
      clearTimeout(warn);
      clearTimeout(expire);
    };
  }, [expiresInMs, navigate, location.pathname, location.search]);

  // Only a page whose script runs can warn anyone: the dialog exists once the timers are armed,
  // so the server (and a page without JavaScript) renders nothing for it.
  if (deadline === null) return null;
  return (
    <Modal open={open} title="Are you still there?" onClose={() => setOpen(false)}>
      <p className="text-sm" data-testid="inactivity-warning" data-deadline={deadline}>
        For your security, you will be logged out due to inactivity in 60 seconds
      </p>
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
