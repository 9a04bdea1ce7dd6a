// Types of ccxt-harness.mjs (the generator runs it with plain Node; the test imports it).

/** The ccxt version the generated specs come from. */
export declare const CCXT_VERSION: string;

/** A ccxt exchange instance, as far as the harness and the test use it. */
export interface CcxtExchange {
  readonly id: string;
  readonly rateLimit: number;
  readonly api: unknown;
  calculateRateLimiterCost(
    api: string | readonly string[],
    method: string,
    path: string,
    params: Record<string, unknown>,
    config: Record<string, unknown>,
  ): unknown;
}

/** The ccxt module (its default export). */
export type CcxtModule = { readonly exchanges: readonly string[] } & Record<string, unknown>;

/** One endpoint of ccxt's `api` tree. */
export interface CcxtApiEndpoint {
  readonly api: string | readonly string[];
  readonly section: string;
  readonly method: string;
  readonly path: string;
  readonly config: Record<string, unknown>;
}

/** The request ccxt sends for an endpoint, or why ccxt cannot build it. */
export type CcxtRequest =
  | {
      readonly host: string;
      readonly path: string;
      readonly query: Record<string, string>;
      readonly body: Record<string, unknown>;
      readonly auth: 'public' | 'private';
      readonly error?: undefined;
    }
  | { readonly error: string };

export declare function walkApi(tree: unknown): CcxtApiEndpoint[];
export declare function ccxtKey(e: CcxtApiEndpoint): string;
export declare function exchangeInstance(ccxt: CcxtModule, id: string, signed: boolean): CcxtExchange;
export declare function pathPlaceholders(path: string): Record<string, string>;
export declare function ccxtRequest(signed: CcxtExchange, anonymous: CcxtExchange, e: CcxtApiEndpoint): CcxtRequest;
export declare function ccxtEndpoints(ccxt: CcxtModule, id: string): (CcxtApiEndpoint & { readonly request: CcxtRequest })[];
