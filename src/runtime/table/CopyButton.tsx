import { useEffect, useState, type CSSProperties, type MouseEvent } from 'react';
import copy from 'copy-to-clipboard';
import CopyIcon from '@ant-design/icons-svg/es/asn/CopyOutlined';
import CheckIcon from '@ant-design/icons-svg/es/asn/CheckOutlined';
import type { AbstractNode, IconDefinition } from '@ant-design/icons-svg/es/types';
import { CONSOLE_THEME } from '../layouts/theme';

/**
 * An antd icon's outline in a colour, as a background image (not a mask, which would clip the button's
 * focus ring away).
 */
function imageOf(def: IconDefinition, colour = 'currentColor'): string {
  const svg = def.icon as AbstractNode;
  const paths = (svg.children ?? []).map((p) => `<path d="${p.attrs.d}"/>`).join('');
  const text = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${svg.attrs.viewBox}" fill="${colour}">${paths}</svg>`;
  return `url("data:image/svg+xml,${encodeURIComponent(text)}") center / contain no-repeat`;
}

/** antd's copy button of a Typography (its "operation unit" style), the icon at antd's icon size and baseline. */
const base: CSSProperties = {
  display: 'inline-block',
  width: '1em',
  height: '1em',
  verticalAlign: '-0.125em',
  marginInlineStart: 4,
  padding: 0,
  border: 0,
  cursor: 'pointer',
  font: 'inherit',
  userSelect: 'none',
};
const COPY_STYLE: CSSProperties = { ...base, background: imageOf(CopyIcon, CONSOLE_THEME.token?.colorLink) };
const COPIED_STYLE: CSSProperties = { ...base, background: imageOf(CheckIcon, CONSOLE_THEME.token?.colorSuccess) };

/**
 * The copy button of a copyable list cell, as antd's Typography draws it (the copy icon after the text,
 * a check for 3 s once copied; the same clipboard helper), without a Typography (about 30 components with
 * resize observers) in every row. The icon is antd's outline drawn as the button's background: one element
 * instead of a button, an icon component and its svg and path in each of a page's 30 rows.
 */
export function CopyButton({ text }: { text: string }) {
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const t = setTimeout(() => setCopied(false), 3000);
    return () => clearTimeout(t);
  }, [copied]);
  const onClick = (e: MouseEvent) => {
    e.preventDefault();
    e.stopPropagation();
    setCopied(copy(text));
  };
  return <button type="button" className="console-copy" aria-label={copied ? '已复制' : '复制'} style={copied ? COPIED_STYLE : COPY_STYLE} onClick={onClick} />;
}
