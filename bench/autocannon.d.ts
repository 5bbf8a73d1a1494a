// The part of autocannon's programmatic API that the benchmarks and the cluster test use (the package ships no types).
declare module "autocannon" {
  type Histogram = { average: number; mean: number; p50: number; p90: number; p99: number; max: number; min: number };
  export type Result = {
    requests: Histogram & { total: number };
    latency: Histogram;
    non2xx: number;
    errors: number;
    timeouts: number;
    /** Seconds the run took. */
    duration: number;
  };
  export type Options = { url: string; connections?: number; duration?: number; amount?: number; headers?: Record<string, string> };
  export default function autocannon(options: Options): Promise<Result>;
  /** With a callback: a running instance that stop() ends early (the callback then gets the result). */
  export default function autocannon(options: Options, callback: (error: Error | null, result: Result) => void): { stop: () => void };
}
