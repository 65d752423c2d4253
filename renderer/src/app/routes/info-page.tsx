import { useParams } from 'react-router-dom';

import { NotFound } from '../../components/errors/not-found.tsx';
import { PublicPageLayout } from '../../components/layouts/public-page-layout.tsx';
import { DocumentSections } from '../../features/content/components/document-sections.tsx';
import { INFO_PAGES } from '../../features/content/info-pages.ts';

/** /about, /careers, /blog, /contact, /documentation, /help and /security; any other slug is not found. */
export function Component() {
  const { slug = '' } = useParams();
  const info = Object.hasOwn(INFO_PAGES, slug) ? INFO_PAGES[slug] : undefined;
  if (!info) {
    return <NotFound />;
  }
  return (
    <PublicPageLayout title={info.title} subtitle={info.subtitle}>
      <DocumentSections sections={info.sections} />
    </PublicPageLayout>
  );
}
