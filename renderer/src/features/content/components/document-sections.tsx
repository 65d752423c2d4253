export interface DocumentSection {
  heading: string;
  paragraphs?: readonly string[];
  items?: readonly string[];
}

/** Renders titled sections of prose and bullet lists, for the legal and information pages. */
export function DocumentSections({ sections }: { sections: readonly DocumentSection[] }) {
  return (
    <div className="space-y-8 leading-relaxed">
      {sections.map((section) => (
        <section key={section.heading} className="space-y-3">
          <h2 className="text-xl font-semibold">{section.heading}</h2>
          {section.paragraphs?.map((paragraph) => (
            <p key={paragraph} className="text-muted-foreground">
              {paragraph}
            </p>
          ))}
          {section.items ? (
            <ul className="list-disc space-y-1 pl-6 text-muted-foreground">
              {section.items.map((item) => (
                <li key={item}>{item}</li>
              ))}
            </ul>
          ) : null}
        </section>
      ))}
    </div>
  );
}

export function lastUpdatedToday(now: Date = new Date()): string {
  return now.toLocaleDateString('en-US', { year: 'numeric', month: 'long', day: 'numeric' });
}
