// The few autocannon 9 types the bench uses (the package ships none; @types/autocannon is not installed).
declare module 'autocannon' {
  namespace autocannon {
    interface Options {
      url: string;
      method?: string;
      headers?: Record<string, string>;
      body?: string;
      connections?: number;
      duration?: number;
      workers?: number;
      /** A sequence each connection runs in turn; `context` is per connection. */
      requests?: {
        method?: string;
        path?: string;
        body?: string;
        setupRequest?(request: Record<string, unknown>, context: Record<string, unknown>): Record<string, unknown>;
        onResponse?(status: number, body: string, context: Record<string, unknown>): void;
      }[];
    }
    interface Histogram {
      average: number;
      total: number;
      p50: number;
      p99: number;
    }
    interface Result {
      requests: Histogram;
      latency: Histogram;
      non2xx: number;
      errors: number;
      timeouts: number;
    }
  }
  function autocannon(options: autocannon.Options): Promise<autocannon.Result>;
  namespace autocannon {
    /** Turns the raw result of a run inside a worker thread into the aggregated shape. */
    function aggregateResult(results: unknown[], options: Options): Result;
  }
  export default autocannon;
}
