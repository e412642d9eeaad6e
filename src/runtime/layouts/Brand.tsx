import { Link } from 'react-router-dom';
import { routesFile } from '../../schema/registry';

/** Brand name (the title suffix without its leading separator), linking to the workbench. */
export const brandName = routesFile.brand.replace(/^[·\s]+/, '');

export function Brand() {
  return (
    <Link to={routesFile.defaultPath} style={{ fontWeight: 600, fontSize: 16, whiteSpace: 'nowrap' }} data-testid="brand">
      {brandName}
    </Link>
  );
}
