import { useRef, type ReactNode } from "react";

interface Props {
  /** The button's label, e.g. "Force re-analysis". */
  children: ReactNode;
  /** The question in the dialog. */
  question: string;
  /** The confirming button's label, e.g. "Analyse again". */
  confirmLabel: string;
  onConfirm: () => void;
  /** What the dialog shows above its buttons, when more than the question (a choice to make first). */
  body?: ReactNode;
  disabled?: boolean;
  className?: string;
}

/**
 * A button whose action needs a confirmation, in the browser's modal <dialog> (focus moves into it,
 * Escape cancels, focus returns to the button).
 */
export function ConfirmButton({ children, question, confirmLabel, onConfirm, body, disabled, className }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  return (
    <>
      <button type="button" className={className} disabled={disabled} onClick={() => dialog.current?.showModal()}>
        {children}
      </button>
      <dialog ref={dialog} className="dialog" aria-label={question}>
        {body ?? <p>{question}</p>}
        <div className="row">
          <button type="button" className="button-primary" onClick={() => (dialog.current?.close(), onConfirm())}>
            {confirmLabel}
          </button>
          <button type="button" autoFocus onClick={() => dialog.current?.close()}>
            Cancel
          </button>
        </div>
      </dialog>
    </>
  );
}
