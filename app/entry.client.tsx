import { RemixBrowser } from "@remix-run/react";
import { startTransition, StrictMode } from "react";
import { hydrateRoot } from "react-dom/client";
import { installNetworkHandling } from "~/utils/network";

// Before Remix's first request: lost requests are retried or held, never shown as a crash.
installNetworkHandling();

startTransition(() => {
  hydrateRoot(
    document,
    <StrictMode>
      <RemixBrowser />
    </StrictMode>,
  );
});
