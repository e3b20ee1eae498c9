import { describeError } from "../lib/errors";

/** An error in words (the server's message and what to do next), announced to screen readers. */
export function ErrorMessage({ error, title = "That did not work", onRetry }: { error: unknown; title?: string; onRetry?: () => void }) {
  const { message, nextStep } = describeError(error);
  return (
    <div className="notice notice-error" role="alert">
      <strong>{title}.</strong> {message} {nextStep && <span>{nextStep}</span>}
      {onRetry && (
        <button type="button" className="button-link" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}
