/** The schema studio's calls to the gateway's development-only API (src/server/studio/routes.ts). */
import { api } from '../../services/request';
import type { SchemaIssue } from '../../schema/types';
import type { StudioChange, StudioMigration } from '../../shared/studio';

export interface StudioFiles {
  /** Every file under schemas/ as text, keyed like 'schemas/routes.json'. */
  files: Record<string, string>;
  /** file → where it is used. */
  usage: Record<string, string[]>;
  icons: string[];
}

export interface FileDraft {
  file: string;
  before?: string;
  after: string;
  diff: string;
}

export type MigrationProblem =
  | { kind: 'removed'; entity: string; table: string; column: string; renamedTo?: { key: string; column: string } }
  | { kind: 'retyped'; entity: string; table: string; key: string; column: string; from: string; to: string };

export interface DatabasePreview {
  migrations: Array<{ id: string; statements: string[] }>;
  statements: string[];
  problems: MigrationProblem[];
  suggestion?: StudioMigration;
  error?: string;
}

export interface PreviewResult {
  files: FileDraft[];
  issues: SchemaIssue[];
  database?: DatabasePreview;
}

export interface SaveResult {
  written: string[];
  files: FileDraft[];
  database?: DatabasePreview;
}

export interface Draft {
  changes: StudioChange[];
  migration?: StudioMigration;
}

export const studioApi = {
  files: () => api.get<StudioFiles>('/api/studio/files'),
  preview: (d: Draft) => api.post<PreviewResult>('/api/studio/preview', d),
  save: (d: Draft) => api.post<SaveResult>('/api/studio/save', d),
  pages: (entity: string, label: string, icon?: string) => api.post<{ changes: StudioChange[] }>('/api/studio/pages', { entity, label, icon }),
};

/** Parsed JSON files of `texts` (meta schemas and page files alike). */
export function parseFiles(texts: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [file, text] of Object.entries(texts)) {
    if (!file.endsWith('.json')) continue;
    try {
      out[file] = JSON.parse(text);
    } catch {
      // an unreadable file is reported by the preview's issues
    }
  }
  return out;
}
