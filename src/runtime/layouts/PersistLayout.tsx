import { useEffect, useState, type ReactNode } from 'react';
import type { RootStore } from '../../stores/root';
import { StoresContext } from '../context';
import { Loading } from './Loading';

/**
 * Layout group "persist": provides the stores and renders pages only after the saved state has
 * loaded (RootStore.rehydrate gives up after REHYDRATE_TIMEOUT_MS = 5000 ms).
 */
export function PersistLayout({ store, children }: { store: RootStore; children: ReactNode }) {
  const [ready, setReady] = useState(store.rehydrated);
  useEffect(() => {
    if (!store.rehydrated) void store.rehydrate().then(() => setReady(true));
  }, [store]);
  return <StoresContext.Provider value={store}>{ready ? children : <Loading />}</StoresContext.Provider>;
}
