/**
 * i18n of the runtime chrome (i18next + react-i18next): the header, the table pagination (spec §9)
 * and common buttons take their texts from the zh-CN catalog. The console speaks Simplified Chinese
 * only: the English switch was removed until every text a user sees, the schemas' labels included,
 * has a catalog a test proves complete (docs/decisions.md).
 */
import i18n from 'i18next';
import { initReactI18next, useTranslation } from 'react-i18next';
import zhCN from './zh-CN';

export type Language = 'zh-CN';
export const DEFAULT_LANGUAGE: Language = 'zh-CN';

if (!i18n.isInitialized) {
  void i18n.use(initReactI18next).init({
    resources: { 'zh-CN': { translation: zhCN } },
    lng: DEFAULT_LANGUAGE,
    fallbackLng: DEFAULT_LANGUAGE,
    interpolation: { escapeValue: false },
    initAsync: false,
  });
}

/** The pagination labels (antd Pagination `locale`): the ones spec §9 gives. */
export function paginationLabels(lang: Language = DEFAULT_LANGUAGE) {
  const t = i18n.getFixedT(lang);
  const keys = ['items_per_page', 'jump_to', 'page', 'prev_page', 'next_page', 'page_size'] as const;
  return Object.fromEntries(keys.map((k) => [k, t(`pagination.${k}`)])) as Record<(typeof keys)[number], string>;
}

export { i18n, useTranslation };
