// The origin that e-mail links (confirmation, password reset) send people back to (docs/product.md §7).
import { PRODUCTION_ORIGIN } from '../../../shared/constants.ts';

/** The production origin when running on the product's own domain, otherwise the current origin. */
export function redirectBase(currentOrigin: string, productionOrigin: string = PRODUCTION_ORIGIN): string {
  const production = new URL(productionOrigin);
  const current = new URL(currentOrigin);
  const ownDomain =
    current.hostname === production.hostname || current.hostname.endsWith(`.${production.hostname}`);
  return ownDomain && current.protocol === 'https:' ? production.origin : current.origin;
}
