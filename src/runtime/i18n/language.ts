/**
 * The chosen language without the translation library: what antd and dayjs follow (BasicLayout) on every
 * page, including the public ones, which show no translated chrome and so do not load i18next.
 * ./index (i18next) reads the same choice and reports every switch here.
 */
import { useSyncExternalStore } from 'react';

export type Language = 'zh-CN' | 'en-US';
export const DEFAULT_LANGUAGE: Language = 'zh-CN';
export const LANGUAGES: ReadonlyArray<{ key: Language; label: string }> = [
  { key: 'zh-CN', label: '简体中文' },
  { key: 'en-US', label: 'English' },
];
export const LANGUAGE_STORAGE_KEY = 'lang';

/** The language remembered in localStorage ('lang'), else the default. */
export function storedLanguage(): Language {
  try {
    const v = typeof localStorage === 'undefined' ? null : localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return LANGUAGES.some((l) => l.key === v) ? (v as Language) : DEFAULT_LANGUAGE;
  } catch {
    return DEFAULT_LANGUAGE;
  }
}

let chosen: Language = storedLanguage();
const listeners = new Set<() => void>();

/** Records a switch (called by ./index once the language is applied). */
export function languageChosen(lang: Language): void {
  if (lang === chosen) return;
  chosen = lang;
  for (const l of listeners) l();
}

/** The chosen language; re-renders on a switch. */
export function useLanguage(): Language {
  return useSyncExternalStore(
    (cb) => {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    () => chosen,
  );
}
