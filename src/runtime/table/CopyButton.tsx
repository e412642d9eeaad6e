import { useEffect, useState, type CSSProperties, type MouseEvent } from 'react';
import copy from 'copy-to-clipboard';
import { CheckOutlined, CopyOutlined } from '@ant-design/icons';
import { CONSOLE_THEME } from '../layouts/theme';

/** antd's copy button of a Typography (its "operation unit" style). */
const style: CSSProperties = {
  marginInlineStart: 4,
  padding: 0,
  border: 0,
  background: 'none',
  color: CONSOLE_THEME.token?.colorLink,
  cursor: 'pointer',
  font: 'inherit',
  userSelect: 'none',
};

/**
 * The copy button of a copyable list cell, as antd's Typography draws it (the copy icon after the text,
 * a check for 3 s once copied; the same clipboard helper), without a Typography (about 30 components with
 * resize observers) in every row.
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
  return (
    <button type="button" className="console-copy" aria-label={copied ? '已复制' : '复制'} style={style} onClick={onClick}>
      {copied ? <CheckOutlined style={{ color: CONSOLE_THEME.token?.colorSuccess }} /> : <CopyOutlined />}
    </button>
  );
}
