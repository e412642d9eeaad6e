import type { CSSProperties, ReactNode } from 'react';
import { theme } from 'antd';

/**
 * The frame of the public pages (sign-in, set-password): a card with a title and the brand line, drawn
 * with antd's theme tokens so it looks like antd's Card + Typography without loading them (Card brings
 * Tabs, Typography its editor and copy button: code the sign-in page does not use).
 */
export function PublicCard({ title, subtitle, style, className, children }: { title: ReactNode; subtitle: ReactNode; style?: CSSProperties; className?: string; children: ReactNode }) {
  const { token } = theme.useToken();
  return (
    <section
      className={className}
      style={{
        boxSizing: 'border-box',
        maxWidth: '100%',
        padding: token.paddingLG,
        background: token.colorBgContainer,
        border: `${token.lineWidth}px ${token.lineType} ${token.colorBorderSecondary}`,
        borderRadius: token.borderRadiusLG,
        color: token.colorText,
        fontSize: token.fontSize,
        lineHeight: token.lineHeight,
        fontFamily: token.fontFamily,
        ...style,
      }}
    >
      <h1
        style={{
          margin: '0 0 0.5em',
          textAlign: 'center',
          color: token.colorTextHeading,
          fontSize: token.fontSizeHeading3,
          lineHeight: token.lineHeightHeading3,
          fontWeight: token.fontWeightStrong,
        }}
      >
        {title}
      </h1>
      <p style={{ margin: '0 0 1em', textAlign: 'center', color: token.colorTextSecondary }}>{subtitle}</p>
      {children}
    </section>
  );
}
