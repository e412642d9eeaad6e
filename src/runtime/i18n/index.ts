/**
 * i18n of the runtime chrome (i18next + react-i18next): zh-CN is the default and what every business
 * text is written in, bundled with the console; en-US is available for the chrome (header, table
 * pagination of spec §9, common buttons) and loaded on demand (its own chunk) when chosen. The chosen
 * language is kept in localStorage ('lang') and applied to antd/ProComponents too (./language holds it
 * for pages that show no translated chrome: the public pages do not load i18next).
 */
import i18n from 'i18next';
import { initReactI18next, useTranslation } from 'react-i18next';
import zhCN from './zh-CN';
import { DEFAULT_LANGUAGE, LANGUAGE_STORAGE_KEY, LANGUAGES, languageChosen, storedLanguage, type Language } from './language';

export { DEFAULT_LANGUAGE, LANGUAGES, type Language } from './language';

/** Adds a language's texts to i18next (zh-CN is always there; en-US is imported the first time). */
export async function loadLanguage(lang: Language): Promise<void> {
  if (i18n.hasResourceBundle(lang, 'translation')) return;
  const texts = (await import('./en-US')).default;
  i18n.addResourceBundle(lang, 'translation', texts);
}

if (!i18n.isInitialized) {
  void i18n.use(initReactI18next).init({
    resources: { 'zh-CN': { translation: zhCN } },
    lng: DEFAULT_LANGUAGE,
    fallbackLng: DEFAULT_LANGUAGE,
    supportedLngs: LANGUAGES.map((l) => l.key),
    interpolation: { escapeValue: false },
    initAsync: false,
  });
  i18n.on('languageChanged', (lng) => {
    if (LANGUAGES.some((l) => l.key === lng)) languageChosen(lng as Language);
  });
  // A remembered English loads its texts, then switches (the chrome shows Chinese until then).
  const stored = storedLanguage();
  if (stored !== DEFAULT_LANGUAGE) void loadLanguage(stored).then(() => i18n.changeLanguage(stored), () => undefined);
}

/** The current language (one of LANGUAGES). */
export function currentLanguage(): Language {
  return LANGUAGES.some((l) => l.key === i18n.language) ? (i18n.language as Language) : DEFAULT_LANGUAGE;
}

/** Switches the language and remembers it. */
export async function setLanguage(lang: Language): Promise<void> {
  try {
    localStorage.setItem(LANGUAGE_STORAGE_KEY, lang);
  } catch {
    /* private mode: the choice lasts for this page only */
  }
  await loadLanguage(lang);
  await i18n.changeLanguage(lang);
}

/** The pagination labels (antd Pagination `locale`) of a language: the ones spec §9 gives, in both languages. */
export function paginationLabels(lang: Language = currentLanguage()) {
  const t = i18n.getFixedT(lang);
  const keys = ['items_per_page', 'jump_to', 'page', 'prev_page', 'next_page', 'page_size'] as const;
  return Object.fromEntries(keys.map((k) => [k, t(`pagination.${k}`)])) as Record<(typeof keys)[number], string>;
}

export { i18n, useTranslation };
