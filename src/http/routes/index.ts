// The route table: every endpoint the service serves, declared once.
import type { AppDeps } from '../../api/app-deps.js';
import type { RouteDef } from '../../api/route.js';
import { accessRoutes } from './access-routes.js';
import { adminRoutes } from './admin-routes.js';
import { clientAdminRoutes } from './client-admin-routes.js';
import { cdsRoutes } from './cds-routes.js';
import { currencyRoutes } from './currency-routes.js';
import { decisionRoutes } from './decision-routes.js';
import { discoveryRoutes } from './discovery-routes.js';
import { exploreRoutes } from './explore-routes.js';
import { fhirRoutes } from './fhir-routes.js';
import { lookupRoutes } from './lookup-routes.js';
import { metaRoutes } from './meta-routes.js';
import { pasAdminRoutes } from './pas-admin-routes.js';
import { smartRoutes } from './smart-routes.js';

export function allRoutes(deps: Pick<AppDeps, 'config'>): RouteDef[] {
  const routes: RouteDef[] = [
    ...lookupRoutes(deps),
    ...decisionRoutes,
    ...discoveryRoutes(() => routes),
    ...exploreRoutes,
    ...fhirRoutes(deps),
    ...cdsRoutes(),
    ...adminRoutes,
    ...pasAdminRoutes,
    ...accessRoutes,
    ...smartRoutes,
    ...clientAdminRoutes,
    ...currencyRoutes,
  ];
  routes.push(...metaRoutes(() => routes));
  return routes;
}
