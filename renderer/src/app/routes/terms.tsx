import { PublicPageLayout } from '../../components/layouts/public-page-layout.tsx';
import { DocumentSections, lastUpdatedToday } from '../../features/content/components/document-sections.tsx';
import { TERMS_SECTIONS } from '../../features/content/legal/terms.ts';

export function Component() {
  return (
    <PublicPageLayout title="Terms of Service" subtitle={`Last Updated: ${lastUpdatedToday()}`}>
      <DocumentSections sections={TERMS_SECTIONS} />
    </PublicPageLayout>
  );
}
