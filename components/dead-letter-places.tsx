/** Where the protocols keep their dead letters (the catalogs' deadLetterPlace), each as code: "queue/dead_letter/". */
export function DeadLetterPlaces({ places }: { places: readonly string[] }) {
  if (places.length === 0) return <>their dead-letter folders</>;
  return (
    <>
      {places.map((p, i) => (
        <span key={p}>
          {i > 0 ? (i === places.length - 1 ? " and " : ", ") : null}
          <code className="font-mono text-xs">{p}</code>
        </span>
      ))}
    </>
  );
}
