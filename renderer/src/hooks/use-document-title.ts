import { useEffect } from 'react';

import { APP_TITLE, BRAND } from '../../../shared/constants.ts';

/** Sets the tab title: "Page | Vigil", or the product title for the landing page. */
export function useDocumentTitle(title?: string): void {
  useEffect(() => {
    document.title = title ? `${title} | ${BRAND}` : APP_TITLE;
  }, [title]);
}
