// antd's styles as a static file (vite.config.ts): first, so it is in place before anything renders.
import 'virtual:antd-static.css';
import { createRoot } from 'react-dom/client';
import { configure } from 'mobx';
import { getAppConfig, routerBasename } from './config';
import { getRootStore } from './stores/root';
import { App } from './runtime/App';
import { initMonitoring } from './monitoring/sentry';

configure({ enforceActions: 'observed' });
const config = getAppConfig();
// Loads @sentry/browser on demand, only for production builds in the production environment with a DSN.
void initMonitoring(config);

const el = document.getElementById('root');
if (!el) throw new Error('index.html has no #root element');
createRoot(el).render(<App store={getRootStore()} basename={routerBasename(config.basePath)} />);
