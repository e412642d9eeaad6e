import { createContext, useContext } from 'react';
import type { RootStore } from '../stores/root';

export const StoresContext = createContext<RootStore | null>(null);

export function useStores(): RootStore {
  const s = useContext(StoresContext);
  if (!s) throw new Error('useStores() used outside <StoresContext.Provider>');
  return s;
}
