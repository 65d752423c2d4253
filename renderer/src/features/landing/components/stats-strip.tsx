import { LANDING_STATS } from '../../../../../shared/constants.ts';

export function StatsStrip() {
  return (
    <section aria-label="Key figures" className="border-y bg-muted/40 px-4 py-10">
      <dl className="mx-auto grid max-w-5xl grid-cols-2 gap-8 text-center md:grid-cols-4">
        {LANDING_STATS.map((stat) => (
          <div key={stat.label} className="flex flex-col gap-1">
            <dt className="order-2 text-sm text-muted-foreground">{stat.label}</dt>
            <dd className="text-3xl font-bold text-primary sm:text-4xl">{stat.value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
