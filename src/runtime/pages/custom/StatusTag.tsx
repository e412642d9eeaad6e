import { Tag } from 'antd';
import type { EnumOption } from '../../../schema/types';

/** antd Tag colours for the entity's option statuses. */
const TAG_COLORS: Record<string, string> = { Success: 'success', Warning: 'warning', Error: 'error', Processing: 'processing', Default: 'default' };

/** A status as a coloured tag; label and colour come from the entity's enum (the one place they live). */
export function StatusTag({ value, options }: { value: unknown; options?: EnumOption[] }) {
  const o = options?.find((x) => x.value === String(value));
  if (!o) return <span>-</span>;
  return (
    <Tag color={TAG_COLORS[o.status ?? 'Default']} data-auto-status={o.value}>
      {o.label}
    </Tag>
  );
}
