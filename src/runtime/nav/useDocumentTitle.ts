import { useEffect } from 'react';
import { routesFile } from '../../schema/registry';
import { documentTitle } from '../menu';

/** Sets the browser tab title: page title + brand suffix. */
export function useDocumentTitle(title: string) {
  useEffect(() => {
    document.title = documentTitle(title, routesFile.brand);
  }, [title]);
}
