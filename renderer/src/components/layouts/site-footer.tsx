import { Shield } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router-dom';

import { COMPLIANCE_BADGES } from '../../../../shared/constants.ts';
import { Button } from '../ui/button.tsx';
import { Input } from '../ui/input.tsx';

const COLUMNS = [
  {
    title: 'Company',
    links: [
      { to: '/about', label: 'About' },
      { to: '/careers', label: 'Careers' },
      { to: '/blog', label: 'Blog' },
      { to: '/contact', label: 'Contact' },
    ],
  },
  {
    title: 'Resources',
    links: [
      { to: '/documentation', label: 'Documentation' },
      { to: '/help', label: 'Help Center' },
      { to: '/security', label: 'Security' },
      { to: '/support', label: 'Support' },
    ],
  },
  {
    title: 'Legal',
    links: [
      { to: '/privacy', label: 'Privacy Policy' },
      { to: '/terms', label: 'Terms of Service' },
    ],
  },
] as const;

const SOCIAL = [
  { href: 'https://github.com/vigil-security', label: 'GitHub' },
  { href: 'https://www.linkedin.com/company/vigil-security', label: 'LinkedIn' },
  { href: 'https://x.com/vigilsecurity', label: 'X' },
] as const;

export function SiteFooter() {
  const [email, setEmail] = useState('');
  // The newsletter field only clears on submit: there is no mailing-list backend, so nothing is sent.
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setEmail('');
  };
  return (
    <footer className="border-t px-4 py-12">
      <div className="mx-auto grid max-w-7xl gap-10 md:grid-cols-5">
        <div className="space-y-4 md:col-span-2">
          <Link to="/" className="flex items-center gap-2 text-xl font-bold">
            <Shield className="size-6 text-primary" aria-hidden /> Vigil
          </Link>
          <p className="text-sm text-muted-foreground">
            Autonomous AI security agents protecting businesses around the clock.{' '}
            {COMPLIANCE_BADGES.join(' · ')}.
          </p>
          <form className="flex max-w-sm gap-2" onSubmit={onSubmit}>
            <label htmlFor="footer-email" className="sr-only">
              Email address
            </label>
            <Input
              id="footer-email"
              type="email"
              required
              placeholder="Enter your email"
              value={email}
              onChange={(event) => setEmail(event.target.value)}
            />
            <Button type="submit">Subscribe</Button>
          </form>
          <ul className="flex gap-4 text-sm" aria-label="Social links">
            {SOCIAL.map(({ href, label }) => (
              <li key={label}>
                <a
                  href={href}
                  target="_blank"
                  rel="noopener noreferrer"
                  className="text-muted-foreground hover:text-foreground"
                >
                  {label}
                </a>
              </li>
            ))}
          </ul>
        </div>
        {COLUMNS.map((column) => (
          <nav key={column.title} aria-label={column.title} className="space-y-3">
            <h2 className="font-semibold">{column.title}</h2>
            <ul className="space-y-2 text-sm">
              {column.links.map((link) => (
                <li key={link.to}>
                  <Link to={link.to} className="text-muted-foreground hover:text-foreground">
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      {/* The prerendered page carries the build's year; the browser's year wins without a hydration error. */}
      <p className="mx-auto mt-10 max-w-7xl text-sm text-muted-foreground" suppressHydrationWarning>
        © {new Date().getFullYear()} Vigil. All rights reserved.
      </p>
    </footer>
  );
}
