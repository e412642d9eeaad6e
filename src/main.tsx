import { createRoot } from 'react-dom/client';
import * as Sentry from '@sentry/browser';
import { configure } from 'mobx';
import { getAppConfig, routerBasename } from './config';
import { getRootStore } from './stores/root';
import { App } from './runtime/App';

configure({ enforceActions: 'observed' });
const config = getAppConfig();
if (config.sentryDsn) Sentry.init({ dsn: config.sentryDsn });

const el = document.getElementById('root');
if (!el) throw new Error('index.html has no #root element');
createRoot(el).render(<App store={getRootStore()} basename={routerBasename(config.basePath)} />);
