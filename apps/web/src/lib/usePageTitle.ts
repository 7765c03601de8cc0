import { useEffect } from 'react';

const PRODUCT_NAME = 'Kamai';

/** Sets the document title for the current screen, e.g. 'Login' -> 'Login | Kamai'. */
export function usePageTitle(screenTitle: string): void {
  useEffect(() => {
    document.title = `${screenTitle} | ${PRODUCT_NAME}`;
  }, [screenTitle]);
}
