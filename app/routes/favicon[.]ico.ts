import { redirect } from "@remix-run/node";

// Browsers and crawlers ask for /favicon.ico whatever the page's <link rel="icon"> says; without
// this route the request would reach the sign-in guard and be answered with the login page.
export function loader() {
  return redirect("/favicon.svg", { status: 301, headers: { "Cache-Control": "public, max-age=86400" } });
}
