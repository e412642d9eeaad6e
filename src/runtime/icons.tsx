import * as Icons from '@ant-design/icons';
import type { ReactNode } from 'react';
import { createElement } from 'react';

/** Resolves an antd icon name from a schema (validated against ICON_NAMES) to an element. */
export function iconFor(name?: string): ReactNode {
  if (!name) return undefined;
  const C = (Icons as unknown as Record<string, React.ComponentType>)[name];
  return C ? createElement(C) : undefined;
}
