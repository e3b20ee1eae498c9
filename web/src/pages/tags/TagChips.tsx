/** An item's tags as small chips: a dot of the tag's colour and its name (the text keeps the page's contrast). */
export interface TagLike {
  readonly id: string;
  readonly name: string;
  readonly color: string;
}

export function TagChips({ tags }: { tags: readonly TagLike[] | null | undefined }) {
  if (!tags || tags.length === 0) return null;
  return (
    <ul className="tag-chips" aria-label="Tags">
      {tags.map((t) => (
        <li key={t.id} className="tag-chip">
          <span className="tag-dot" style={{ backgroundColor: t.color }} aria-hidden="true" />
          {t.name}
        </li>
      ))}
    </ul>
  );
}
