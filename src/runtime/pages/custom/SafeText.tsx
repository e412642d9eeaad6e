import { Typography } from 'antd';

/**
 * Text content as the agreement page renders it: blank-line separated paragraphs, paragraphs starting
 * with '#' as headings. Plain text nodes only (no HTML is interpreted).
 */
export function SafeText({ text }: { text: string }) {
  return (
    <Typography>
      {text
        .split(/\n\s*\n/)
        .map((p) => p.trim())
        .filter(Boolean)
        .map((t, i) =>
          t.startsWith('#') ? (
            <Typography.Title key={i} level={t.startsWith('##') ? 5 : 4}>
              {t.replace(/^#+\s*/, '')}
            </Typography.Title>
          ) : (
            <Typography.Paragraph key={i} style={{ whiteSpace: 'pre-line' }}>
              {t}
            </Typography.Paragraph>
          ),
        )}
    </Typography>
  );
}
