/** Types of ./queries.mjs (the ladder's GraphQL queries), for the TypeScript benchmarks that reuse them. */
export declare const VIDEO_FIELDS: string;
export declare const GQL_LIST: string;
export declare const GQL_NESTED: string;
