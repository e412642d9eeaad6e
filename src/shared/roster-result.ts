/**
 * The head of a parsed roster upload, as the gateway stores it (insure_uploads.result) and the browser
 * receives it in the preview: the columns, how many rows, and how they are split into pages
 * (GET /api/insure-uploads/:id/rows?page=N, `pageSize` rows a page).
 */
export interface ResultHead {
  columns: Array<{ key: string; label: string }>;
  headerRow: number;
  unknownHeaders: string[];
  total: number;
  pageSize: number;
  pages: number;
}
