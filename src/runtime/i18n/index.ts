/**
 * i18n of the runtime chrome (i18next + react-i18next): zh-CN is the default and what every business
 * text is written in; en-US is available for the chrome (header, table pagination of spec §9, common
 * buttons). The chosen language is kept in localStorage ('lang') and applied to antd/ProComponents too.
 */
import i18n from 'i18next';
import { initReactI18next, useTranslation } from 'react-i18next';
import enUS from './en-US';
import zhCN from './zh-CN';

export type Language = 'zh-CN' | 'en-US';
export const DEFAULT_LANGUAGE: Language = 'zh-CN';
export const LANGUAGES: ReadonlyArray<{ key: Language; label: string }> = [
  { key: 'zh-CN', label: '简体中文' },
  { key: 'en-US', label: 'English' },
];
const STORAGE_KEY = 'lang';

function storedLanguage(): Language {
  try {
    const v = typeof localStorage === 'undefined' ? null : localStorage.getItem(STORAGE_KEY);
    return LANGUAGES.some((l) => l.key === v) ? (v as Language) : DEFAULT_LANGUAGE;
  } catch {
    return DEFAULT_LANGUAGE;
  }
}

if (!i18n.isInitialized) {
  void i18n.use(initReactI18next).init({
    resources: { 'zh-CN': { translation: zhCN }, 'en-US': { translation: enUS } },
    lng: storedLanguage(),
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: LANGUAGES.map((l) => l.key),
    interpolation: { escapeValue: false },
    initAsync: false,
  });
}

/** The current language (one of LANGUAGES). */
export function currentLanguage(): Language {
  return LANGUAGES.some((l) => l.key === i18n.language) ? (i18n.language as Language) : DEFAULT_LANGUAGE;
}

/** Switches the language and remembers it. */
export async function setLanguage(lang: Language): Promise<void> {
  try {
    localStorage.setItem(STORAGE_KEY, lang);
  } catch {
    /* private mode: the choice lasts for this page only */
  }
  await i18n.changeLanguage(lang);
}

/** The pagination labels (antd Pagination `locale`) of a language: the ones spec §9 gives, in both languages. */
export function paginationLabels(lang: Language = currentLanguage()) {
  const t = i18n.getFixedT(lang);
  const keys = ['items_per_page', 'jump_to', 'page', 'prev_page', 'next_page', 'page_size'] as const;
  return Object.fromEntries(keys.map((k) => [k, t(`pagination.${k}`)])) as Record<(typeof keys)[number], string>;
}

export { i18n, useTranslation };
