import type { MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { getEnv } from "~/env.server";

// The benchmark's baseline (bench/ssr.js): the smallest page this build can render, with the same
// root loader, document and server as every other page. Mounted only in builds made with
// BUILD_TEST_ROUTES=true (remix.config.js), and a 404 unless BENCH_ROUTES=true.
export const meta: MetaFunction = () => [{ title: "Hello | Remarket" }];

export async function loader() {
  if (!getEnv().BENCH_ROUTES) throw new Response("Not found", { status: 404 });
  return { message: "Hello, world" };
}

export default function Hello() {
  const { message } = useLoaderData<typeof loader>();
  return <h1>{message}</h1>;
}
