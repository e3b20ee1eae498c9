/** A loading state that says what is loading (role=status: announced, not interrupting). */
export function Loading({ what = "Loading" }: { what?: string }) {
  return (
    <p className="loading" role="status">
      {what}…
    </p>
  );
}
