import type { ThemeConfig } from 'antd';

/**
 * The console's antd theme: antd's defaults with every text colour at WCAG AA contrast (4.5:1) on its
 * background — primary blue (links, buttons, selected menu items), secondary text, and the text of
 * status tags and badges — and no space forced between two Chinese characters of a button (so
 * "登录" is read and matched as one word).
 */
export const CONSOLE_THEME: ThemeConfig = {
  // One antd and one theme on every page: its styles need no hash class to tell themes apart. Unhashed,
  // antd's classes alone select them (the list's status badges are drawn as markup, table/cells.tsx), and
  // no selector of the static stylesheet carries a :where(.css-…) to check.
  hashed: false,
  token: {
    colorPrimary: '#0958d9',
    colorInfo: '#0958d9',
    colorLink: '#0958d9',
    colorSuccess: '#237804',
    colorWarning: '#ad4e00',
    colorError: '#cf1322',
    // Light backgrounds of status tags and alerts stay antd's (derived from the darker seeds they turn grey).
    colorSuccessBg: '#f6ffed',
    colorSuccessBorder: '#b7eb8f',
    colorWarningBg: '#fffbe6',
    colorWarningBorder: '#ffe58f',
    colorErrorBg: '#fff1f0',
    colorErrorBorder: '#ffa39e',
    colorInfoBg: '#e6f4ff',
    colorInfoBorder: '#91caff',
    colorTextSecondary: 'rgba(0, 0, 0, 0.65)',
    colorTextDescription: 'rgba(0, 0, 0, 0.65)',
    colorTextTertiary: 'rgba(0, 0, 0, 0.6)',
    // Text of preset-coloured tags (antd uses the 7th shade of each palette).
    blue7: '#003eb3',
    green7: '#237804',
    gold7: '#874d00',
    orange7: '#ad4e00',
    red7: '#a8071a',
    volcano7: '#ad2102',
    cyan7: '#006d75',
    magenta7: '#9e1068',
    purple7: '#531dab',
    lime7: '#3f6600',
    yellow7: '#614700',
    geekblue7: '#10239e',
  },
};
