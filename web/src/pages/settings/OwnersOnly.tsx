/** What a member sees in place of an owner's section. */
export function OwnersOnly({ what }: { what: string }) {
  return (
    <div className="empty">
      <p className="empty-title">Only owners of this workspace manage {what}.</p>
      <p className="empty-next">Ask an owner (see Members) to do it for you, or to make you an owner.</p>
    </div>
  );
}
