import { PublicPageLayout } from '../../components/layouts/public-page-layout.tsx';
import { DocumentSections, lastUpdatedToday } from '../../features/content/components/document-sections.tsx';
import { PRIVACY_SECTIONS } from '../../features/content/legal/privacy.ts';

export function Component() {
  return (
    <PublicPageLayout title="Privacy Policy" subtitle={`Last Updated: ${lastUpdatedToday()}`}>
      <DocumentSections sections={PRIVACY_SECTIONS} />
    </PublicPageLayout>
  );
}
