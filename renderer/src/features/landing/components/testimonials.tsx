import { Quote } from 'lucide-react';

import { Card, CardContent } from '../../../components/ui/card.tsx';

const TESTIMONIALS = [
  {
    quote:
      'Vigil found an exposed admin panel in our staging environment within an hour of setup. Our previous annual pentest had missed it.',
    name: 'Sarah Chen',
    title: 'CTO, Northwind Health',
  },
  {
    quote:
      'We are a 40-person fintech without a dedicated SOC. The agents triage our alerts overnight and we start each day with a clear list of what matters.',
    name: 'Marcus Reyes',
    title: 'Head of Engineering, Ledgerline',
  },
  {
    quote: 'The reports map straight onto our SOC 2 controls. Audit preparation went from weeks to days.',
    name: 'Priya Natarajan',
    title: 'Compliance Lead, Brightpath Retail',
  },
] as const;

export function Testimonials() {
  return (
    <section className="bg-muted/40 px-4 py-20" aria-labelledby="testimonials-title">
      <div className="mx-auto max-w-7xl space-y-10">
        <h2 id="testimonials-title" className="text-center text-3xl font-bold sm:text-4xl">
          Trusted by Security-Conscious Teams
        </h2>
        <div className="grid gap-6 md:grid-cols-3">
          {TESTIMONIALS.map((item) => (
            <Card key={item.name}>
              <CardContent className="space-y-4 pt-6">
                <Quote className="size-8 text-primary" aria-hidden />
                <blockquote className="text-muted-foreground">“{item.quote}”</blockquote>
                <p>
                  <span className="block font-semibold">{item.name}</span>
                  <span className="text-sm text-muted-foreground">{item.title}</span>
                </p>
              </CardContent>
            </Card>
          ))}
        </div>
      </div>
    </section>
  );
}
