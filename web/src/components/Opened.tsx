import type { ReactNode } from "react";
import { Suspense } from "react";
import { usePreloadedQuery, type PreloadedQuery } from "react-relay";
import type { OperationType } from "relay-runtime";
import type { OnOpen } from "../relay/on-open";
import { ErrorBoundary } from "./ErrorBoundary";
import { Loading } from "./Loading";

/**
 * What a `useQueryOnOpen` opened (relay/on-open.ts): nothing while closed, "Loading …" until its query
 * answers, then `children` with the data; an error is said in words in its place.
 */
export function Opened<Q extends OperationType>({
  part,
  what,
  children,
}: {
  part: OnOpen<Q>;
  /** What it reads, for the loading and error states ("the folders"). */
  what: string;
  children: (data: Q["response"]) => ReactNode;
}) {
  if (!part.ref) return null;
  return (
    <ErrorBoundary what={what}>
      <Suspense fallback={<Loading what={`Loading ${what}`} />}>
        <Read part={part} queryRef={part.ref}>
          {children}
        </Read>
      </Suspense>
    </ErrorBoundary>
  );
}

function Read<Q extends OperationType>({
  part,
  queryRef,
  children,
}: {
  part: OnOpen<Q>;
  queryRef: PreloadedQuery<Q>;
  children: (data: Q["response"]) => ReactNode;
}) {
  return <>{children(usePreloadedQuery<Q>(part.query, queryRef))}</>;
}
